"""The players' view served over the local network to phones and tablets (issue 19)."""

from battlemap.ui.share.controller import install

__all__ = ["install"]
