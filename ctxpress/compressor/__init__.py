"""Pure, synchronous compression: no network, no globals but the default cache.

``STAGES`` maps a stage name to its factory. Factories import their module on
first use, so a process pays for a stage's dependencies only if it runs it.
"""

from __future__ import annotations

from ctxpress.compressor.pipeline import (
    CompressResult,
    Context,
    Stage,
    StageFactory,
    StageReport,
    compress,
)
from ctxpress.config import Config


def _system(config: Config) -> Stage:
    from ctxpress.compressor.system import SystemStage

    return SystemStage(config)


def _code(config: Config) -> Stage:
    from ctxpress.compressor.code import CodeStage

    return CodeStage(config)


def _history(config: Config) -> Stage:
    from ctxpress.compressor.history import HistoryStage

    return HistoryStage(config)


def _logs(config: Config) -> Stage:
    from ctxpress.compressor.logs import LogStage

    return LogStage()  # (nothing in it is configurable)


STAGES: dict[str, StageFactory] = {
    "code": _code,
    "history": _history,
    "logs": _logs,
    "system": _system,
}

__all__ = ["STAGES", "CompressResult", "Context", "Stage", "StageReport", "compress"]
