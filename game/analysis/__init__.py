"""Analyses of finished runs that read the engine's records (never part of the engine):
item_flow.py traces where items went; collaboration.py scores how agents worked together."""
