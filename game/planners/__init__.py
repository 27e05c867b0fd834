"""Planners that write plans for the engine: LLM planners (llm/) and abstract scheduling tasks."""
