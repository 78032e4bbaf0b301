"""The app's name for a seat's session: it lives in ``bela.net.seat_session`` now, below
the app and the command line, because the plain network seat (``bela join --plain``) sits
down, keeps its token and reconnects exactly as the app does."""

from bela.net.seat_session import (
    RETRY_FOR,
    RemoteSession,
    SeatLost,
    forget_token,
    keep_token,
    kept_token,
)

__all__ = ["RETRY_FOR", "RemoteSession", "SeatLost", "forget_token", "keep_token", "kept_token"]
