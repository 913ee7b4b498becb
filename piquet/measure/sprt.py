"""A sequential probability ratio test on a stream of mirrored samples: ``piquet arena --sprt``.

Each mirrored pair of games gives one number, the first agent's points less the second's
(averaged over the two games). The test takes these numbers as independent draws from a normal
law of unknown mean and variance, and weighs two hypotheses on the mean: H0, the mean is ``mu0``;
H1, it is ``mu1``. After ``n`` samples of mean ``x̄`` and variance ``s²`` (estimated from the
samples themselves) the log-likelihood ratio of H1 to H0 is the generalized SPRT's normal
approximation

    LLR = n · (mu1 - mu0) · (2·x̄ - mu0 - mu1) / (2·s²),

and the test stops at Wald's bounds: it accepts H1 once LLR ≥ log((1 - beta) / alpha), H0 once
LLR ≤ log(beta / (1 - alpha)), ``alpha`` being the chance of accepting H1 when H0 holds and
``beta`` that of accepting H0 when H1 holds. How the arena uses it, and where the model comes
from: docs/players.md, "Stopping when the result is clear".

>>> test = Sprt(0.0, 2.0)
>>> round(test.lower, 3), round(test.upper, 3)
(-2.944, 2.944)
>>> stream = SprtStream(test)
>>> [stream.add(x) for x in (3.0, 5.0, 1.0)][-1] is None  # too few samples to judge
True
>>> state = stream.state()
>>> state.samples, round(state.llr, 3), state.decision
(3, 3.0, None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["MIN_SAMPLES", "Sprt", "SprtState", "SprtStream", "elo_score", "parse_bounds"]

#: The test decides nothing before this many samples: the variance estimated from fewer is too
#: unsteady (two equal samples would give a variance of 0 and an infinite ratio). On simulated
#: matches (tools/sprt_oc.py, docs/players.md) a minimum of 10 let the test designed for errors of
#: 5% take the wrong hypothesis in 6.3% and 6.0% of them, one of 30 in 5.7% and 5.1%.
MIN_SAMPLES = 30


def elo_score(elo: float) -> float:
    """The expected score (a win 1, a tie 1/2) of a player this many Elo points the better.

    >>> elo_score(0.0), round(elo_score(100.0), 4)
    (0.5, 0.6401)
    """
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True, slots=True)
class Sprt:
    """The test's design: the two hypotheses on the mean and the two error rates.

    With ``elo``, ``mu0`` and ``mu1`` are Elo differences and the samples the first agent's
    score in each mirrored pair (0, 1/4, 1/2, 3/4 or 1): the hypotheses are on its mean, the
    expected score of those Elo differences (the logistic curve of :func:`elo_score`).
    """

    mu0: float
    mu1: float
    alpha: float = 0.05
    beta: float = 0.05
    elo: bool = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu0) and math.isfinite(self.mu1)) or self.mu0 == self.mu1:
            raise ValueError(f"the SPRT's hypotheses must be two different numbers, not {self.mu0} and {self.mu1}")
        if self.elo and not max(abs(self.mu0), abs(self.mu1)) < 2000:
            raise ValueError(f"the SPRT's Elo hypotheses must lie within ±2000, not {self.mu0} and {self.mu1}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ValueError(f"the SPRT's {name} must lie between 0 and 0.5, not {value}")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this log-likelihood ratio."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this log-likelihood ratio."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, samples: int, mean: float, variance: float) -> float:
        """The log-likelihood ratio of H1 to H0 after ``samples`` of this mean and variance
        (infinite when samples that all agree lie nearer one hypothesis).

        >>> Sprt(0.0, 1.0).llr(100, 0.5, 4.0)  # halfway between the hypotheses: no evidence
        0.0
        >>> Sprt(0.0, 1.0).llr(100, 1.0, 4.0)
        12.5
        >>> Sprt(0.0, 1.0).llr(20, -1.0, 0.0)
        -inf
        """
        mu0, mu1 = self.means
        evidence = samples * (mu1 - mu0) * (2 * mean - mu0 - mu1)
        if variance <= 0:
            return 0.0 if evidence == 0 else math.copysign(math.inf, evidence)
        return evidence / (2 * variance)

    @property
    def means(self) -> tuple[float, float]:
        """The samples' mean under H0 and under H1 (for an Elo test, the expected scores).

        >>> [round(m, 4) for m in Sprt(0.0, 20.0, elo=True).means]
        [0.5, 0.5288]
        """
        return (elo_score(self.mu0), elo_score(self.mu1)) if self.elo else (self.mu0, self.mu1)


@dataclass(frozen=True, slots=True)
class SprtState:
    """Where a test stands: the samples seen, their mean, the ratio and the decision
    (``"H0"``, ``"H1"`` or ``None`` while it goes on)."""

    test: Sprt
    samples: int
    mean: float
    llr: float
    decision: str | None

    def describe(self) -> str:
        """One line for the report.

        >>> SprtState(Sprt(0.0, 2.0), 40, 3.1, 3.2, "H1").describe()
        'SPRT H0 0 vs H1 2 (alpha 0.05, beta 0.05): H1 accepted after 40 samples, LLR +3.20 (bounds -2.94, +2.94)'
        """
        t = self.test
        verdict = f"{self.decision} accepted" if self.decision else "no decision"
        unit = " Elo" if t.elo else ""
        return (f"SPRT H0 {t.mu0:g} vs H1 {t.mu1:g}{unit} (alpha {t.alpha:g}, beta {t.beta:g}): "
                f"{verdict} after {self.samples} samples, LLR {self.llr:+.2f} "
                f"(bounds {t.lower:+.2f}, {t.upper:+.2f})")


class SprtStream:
    """The test run on samples given one at a time (Welford's running mean and variance)."""

    def __init__(self, test: Sprt, min_samples: int = MIN_SAMPLES) -> None:
        self.test = test
        self.min_samples = max(2, min_samples)
        self._n = 0
        self._mean = 0.0
        self._m2 = 0.0
        self._decision: str | None = None

    def add(self, x: float) -> str | None:
        """Take one sample; the decision once the ratio has crossed a bound (and from then on)."""
        if self._decision is not None:
            return self._decision
        self._n += 1
        delta = x - self._mean
        self._mean += delta / self._n
        self._m2 += delta * (x - self._mean)
        if self._n >= self.min_samples:
            llr = self.llr()
            if llr >= self.test.upper:
                self._decision = "H1"
            elif llr <= self.test.lower:
                self._decision = "H0"
        return self._decision

    def llr(self) -> float:
        variance = self._m2 / (self._n - 1) if self._n > 1 else 0.0
        return self.test.llr(self._n, self._mean, variance)

    def state(self) -> SprtState:
        return SprtState(self.test, self._n, self._mean, self.llr(), self._decision)


def parse_bounds(text: str, option: str = "--sprt") -> tuple[float, float]:
    """``"MU0,MU1"`` as two numbers, or a :class:`ValueError` naming the option and the text.

    >>> parse_bounds("0,2.5")
    (0.0, 2.5)
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        mu0, mu1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"{option} takes two numbers, H0's and H1's (as 0,2), not {text!r}") from None
    return mu0, mu1
