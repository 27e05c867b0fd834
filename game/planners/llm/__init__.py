"""LLM planners: any OpenAI-compatible model plans kitchen levels under the benchmark's protocol.

- client.py: chat requests with retries and backoff; parsing.py: JSON out of model replies;
- prompts.py + prompts/: the prompt templates; describe.py, feedback.py: state and error text;
- methods.py: io, cot, plag and msreact; tasks.py: which levels to run; runner.py: a whole run.
"""

METHODS = ("io", "cot", "plag", "msreact")
ABSTRACT_METHODS = ("io", "cot")  # for abstract scheduling tasks
