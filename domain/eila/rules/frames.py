"""The effect stack (see :mod:`domain.eila.state`): what is pending, and the plain moves on it."""

from __future__ import annotations

from msgspec.structs import replace

from domain.eila.content import Effect
from domain.eila.state import EilaState, Frame


def pending(state: EilaState) -> Effect | None:
    """The effect waiting to be resolved: the top frame's, or None when it has none left."""
    if not state.frames:
        return None
    top = state.frames[-1]
    return top.effects[top.step] if top.step < len(top.effects) else None


def midway(state: EilaState) -> bool:
    """Whether an effect is partly resolved; conversions wait until it is done."""
    return any(frame.begun for frame in state.frames)


def _top(state: EilaState, frame: Frame) -> EilaState:
    return replace(state, frames=(*state.frames[:-1], frame))


def advance(state: EilaState) -> EilaState:
    """The pending effect is done: the next one of the top frame is pending."""
    top = state.frames[-1]
    return _top(state, replace(top, step=top.step + 1, begun=False, done=0))


def touch(state: EilaState, done: int = 0) -> EilaState:
    """The pending effect is partly resolved, ``done`` more of it."""
    top = state.frames[-1]
    return _top(state, replace(top, begun=True, done=top.done + done))


def afresh(state: EilaState) -> EilaState:
    """The pending effect starts again from nothing (a fight fought on)."""
    top = state.frames[-1]
    return _top(state, replace(top, begun=False, done=0))


def push(state: EilaState, effects: tuple[Effect, ...], *, shields: int = 0) -> EilaState:
    return replace(state, frames=(*state.frames, Frame(effects, shields=shields)))


def pop(state: EilaState) -> EilaState:
    return replace(state, frames=state.frames[:-1])


def shields_left(state: EilaState) -> int:
    """The shields of the innermost combat outcome being executed."""
    for frame in reversed(state.frames):
        if frame.shields:
            return frame.shields
    return 0


def use_shields(state: EilaState, used: int) -> EilaState:
    if not used:
        return state
    frames = list(state.frames)
    for index in range(len(frames) - 1, -1, -1):
        if frames[index].shields:
            frames[index] = replace(frames[index], shields=frames[index].shields - used)
            break
    return replace(state, frames=tuple(frames))


def set_place(state: EilaState, destination: str) -> EilaState:
    """The Present card goes to ``destination``: the option's frame, the bottom one, says so."""
    frames = list(state.frames)
    frames[0] = replace(frames[0], place=destination)
    return replace(state, frames=tuple(frames))
