"""The limits a table keeps on its own, with the standard library alone: a token bucket, and the network an
address belongs to.

The server's guards at the socket (:mod:`piquet.ui.web.guard`, which needs uvicorn) and the tables
(:mod:`piquet.ui.web.tables`, which run in the browser too: ``docs/offline.md``) both use them, so they live apart from
the server.
"""

from __future__ import annotations

import functools
import ipaddress
import math
from collections import deque

__all__ = ["TokenBucket", "Window", "prefix_of"]


@functools.lru_cache(maxsize=65536)
def prefix_of(host: str) -> str:
    """The network of an address, as the limits by network count it: an IPv4 address's /24, an IPv6 address's /64 (an
    IPv4 address mapped into IPv6 as IPv4); anything else (a Unix socket, a name) is its own.

    >>> prefix_of("203.0.113.7"), prefix_of("2001:db8:1:2:3:4:5:6"), prefix_of("::ffff:198.51.100.9")
    ('203.0.113.0/24', '2001:db8:1:2::/64', '198.51.100.0/24')
    """
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    bits = 24 if isinstance(address, ipaddress.IPv4Address) else 64
    return str(ipaddress.ip_network(f"{address}/{bits}", strict=False))


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved; :meth:`take` spends them."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    def available(self, now: float) -> float:
        """The tokens there are now (nothing spent)."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are that many; whether there were."""
        if self.available(now) >= cost - 1e-9:  # a whole token, to the rounding of the refill
            self.tokens = max(0.0, self.tokens - cost)
            return True
        return False

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class Window:
    """At most one use every ``interval`` seconds and ``most`` in any minute (a sliding window: no burst past
    ``most`` a minute, as a bucket would allow after a quiet while); :meth:`wait` says how long until the next."""

    __slots__ = ("interval", "most", "used")

    def __init__(self, interval: float, most: int) -> None:
        self.interval = interval
        self.most = most
        self.used: deque[float] = deque()  # the uses of the last minute, oldest first

    def wait(self, now: float) -> int:
        """Whole seconds until a use is allowed (0: now)."""
        while self.used and self.used[0] <= now - 60:
            self.used.popleft()
        waits = [self.used[-1] + self.interval - now] if self.used else []
        if len(self.used) >= self.most:
            waits.append(self.used[0] + 60 - now)
        return math.ceil(max(waits, default=0.0))

    def use(self, now: float) -> None:
        self.used.append(now)
