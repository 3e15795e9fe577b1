"""The benchmark suite behind `make bench`: translation cost against the orjson floor and
LiteLLM, timed in one process with the contenders interleaved (see ``python -m bench -h``).

Bench data is read from ``../shared/fixtures`` (real recorded traffic); workloads whose data is
absent are skipped with a message. Nothing here asserts speed.
"""
