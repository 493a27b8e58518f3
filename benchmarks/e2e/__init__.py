"""End-to-end machinery: a tiny local Llama for vLLM, and server start/stop helpers."""
