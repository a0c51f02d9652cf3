"""The published claims of Maheswaran et al. (1999), section 5 (Figs. 4-11, the KPB remark after Fig. 5), as data.

Each claim runs the figure's preset (:mod:`.presets`) with the paper's 50 trials (section 5.1: "each data point in the
comparison charts is an average over 50 trials"); sweeps reuse the figures' scenarios where they coincide (the rate
sweep's points at lambda_l, lambda_h and lambda_t are the scenarios of Figs. 10, 9 and 11). Comparisons are paired
over the trials' common random numbers. The paper prints only three numbers in section 5 (the KPB factors of five and
1.2, and Max-min's "about 50%" in Fig. 8); its other claims are directions, read as each claim's note says. Fig. 5 is
run under both readings of the semiconsistent matrix (section 4): ``sort`` (the preset) and ``smallest`` (explained in
docs/models/etc.md, "How the model is read").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from hcsched.claims import AllOf, Best, Better, Check, Claim, Custom, Outcome, Ratio, Reading, Trend, wide
from hcsched.models.etc.presets import BATCH, RATES, sweeps

MODEL = "etc"
TRIALS = 50  # section 5.1
TINY = {"tasks": 100}  # the quick version for tests: 100 of the 2000 tasks, every heuristic and machine kept
RATE = "arrivals.rate"
K = "heuristics.0.k"  # KPB's k in the KPB-alone scenario of the k sweep
K_VALUES = sweeps()["maheswaran-kpb-k"].vary[K]  # 5, 10, 20, ... 100% of 20 machines; 5% is one machine (MET)
RATE_VALUES = sweeps()["maheswaran-rate"].vary[RATE]  # lambda_l, lambda_h, 0.005, lambda_t
LAMBDA = RATES[("inconsistent", "sort")]
SMALLEST = Reading(
    "smallest", {"etc.semiconsistent_mode": "smallest", RATE: RATES[("semiconsistent", "smallest")]["lambda_h"]},
    "The other reading of section 4: each chosen task's smallest times are put in the consistent submatrix, as the "
    "paper's assumption (\"the execution times that fall within the consistent submatrix are smaller\") requires; "
    "lambda_h recalibrated for it (section 5.1).",
    words="each task's smallest times form the consistent part")


# --- checks of this paper -----------------------------------------------------------------------------------
def slightly_better(a: str, b: str, within: float = 10.0) -> AllOf:
    """``a`` better than ``b`` on makespan (paired), "only slightly": by less than ``within`` percent."""
    return AllOf(Better(a, b, "makespan"), Ratio(a, b, "makespan", at_least=1.0 - within / 100.0),
                 text=f"{a} better than {b} on makespan (paired), by less than {within:g}%")


def far_worse(worst: str, others: tuple[str, ...], factor: float = 2.0) -> AllOf:
    """``worst``'s makespan at least ``factor`` times each of ``others``', per trial ("much larger": twice or more)."""
    return AllOf(*(Ratio(worst, o, "makespan", at_least=factor) for o in others),
                 text=f"makespan of {worst} at least {factor:g} times that of each of {', '.join(others)}")


def batch_beats_immediate() -> AllOf:
    """Each batch heuristic of Figs. 9-11 (Min-min, Sufferage) better than each immediate one (MCT, KPB), paired."""
    return AllOf(*(Better(b, i, "makespan") for b in ("min-min", "sufferage") for i in ("mct", "kpb")),
                 text="min-min and sufferage each better than mct and kpb on makespan (paired)")


def gap_rises() -> AllOf:
    """The immediate heuristics' (MCT, KPB) paired makespan excess over Min-min, the figures' benchmark, rises with
    the arrival rate."""
    return AllOf(*(Trend("makespan", h, RATE, versus="min-min") for h in ("mct", "kpb")),
                 text="the makespan excess of mct and of kpb over min-min (paired, %) rises with the arrival rate")


def _aging_gain(results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
    """Max-min has the smallest makespan with aging over without (paired per trial) of the three batch heuristics:
    particular to Fig. 7, a Best among per-trial ratios."""
    ratios = [(h, Ratio(f"{h} (aging)", h, "makespan").values(results)) for h in BATCH]
    rows = pd.concat([pd.DataFrame({"trial": r.index, "heuristic": h, "aging_ratio": r.to_numpy(float)})
                      for h, r in ratios], ignore_index=True)
    return Best("max-min", "aging_ratio").evaluate(rows, {"aging_ratio": "lower"})


AGING_GAIN = Custom("makespan", _aging_gain, "makespan with aging over without, per trial: smallest for max-min of "
                    + ", ".join(BATCH), (*BATCH, *(f"{h} (aging)" for h in BATCH)))


def _insensitive(results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
    """Above k's minimum, the largest mean KPB makespan over the smallest (paired per trial) is at most 1.2:
    particular to the remark after Fig. 5, a Ratio between points chosen by the results."""
    rows = results[results[K] > min(K_VALUES)]
    means = wide(rows, "makespan", K).mean()
    return Ratio(means.idxmax(), means.idxmin(), "makespan", by=K, at_most=1.2).evaluate(rows, better)


K_INSENSITIVE = Custom("makespan", _insensitive, f"makespan of kpb at the worst k over the best k, for k above "
                       f"{min(K_VALUES):g}%, per trial, at most 1.2", ("kpb",))


# --- the claims -------------------------------------------------------------------------------------------
def _claim(slug: str, where: str, text: str, scenario: str, check: Check, **more: Any) -> Claim:
    """A claim of the paper with its 50 trials and the quick version; ``slug`` follows the paper's prefix."""
    return Claim(f"maheswaran-{slug}", MODEL, where, text, scenario, check, trials=TRIALS, tiny=TINY, **more)


# The paper's settings in words (section 5.1): HiHi is high task and high machine heterogeneity; lambda_h, lambda_l
# and lambda_t are the arrival rates that leave 50%, 90% and 20% of the tasks done when the last one arrives.
INCONSISTENT = "inconsistent expected times, high task and machine heterogeneity"
SEMI = "semiconsistent expected times and high task and machine heterogeneity"
HIGH, LOW = "the high arrival rate (lambda_h)", "the low arrival rate (lambda_l)"
TOP = "the highest arrival rate (lambda_t)"
DOCS = "docs/models/etc.md"  # the ETC model's page of the docs, cited by the notes with a section's title
READ = f"{DOCS}, 'How the model is read'"
FIG4_NOTE_KPB = ("Does not hold here: MET and SA finish earlier than KPB, which is still slightly ahead of MCT. No "
                 f"cause is known ({DOCS}); the paper's bars are not printed as numbers.")
FIG5_SORT_NOTE = ("Under the `sort` reading the values already in the consistent submatrix's columns are sorted, so a "
                  "chosen task's fastest machine is often outside it: MET does not pile half of the tasks on one "
                  "machine (section 5.2's explanation) and OLB stays worst. The `smallest` reading follows the paper's "
                  "assumption and gives MET worst and OLB ahead of MET, but then KPB's four fastest machines are the "
                  "same for half of the tasks and KPB falls well behind MCT.")
FIG8_NOTE = ("Does not hold: with the paper's ETC ranges (up to 300,000 s) the calibrated high arrival rate gives one "
             "arrival every ~290 s, so a 10 s interval maps after nearly every arrival and completion, exactly as the "
             "count strategy does once more than 40 tasks wait (almost always at the high arrival rate). Both "
             "strategies see the same meta-tasks and Max-min gains nothing. The paper's remark that a count of 40 "
             "(kappa) gave smaller batches than the 10 s interval implies many arrivals per 10 s, a time scale it does "
             f"not state. The two strategies as read: {READ}.")
KPB_K_NOTE = (f"KPB alone on Fig. 5's {SEMI} at {HIGH} (the setting of the remark), k over the built-in "
              "sweep `maheswaran-kpb-k` (docs/sweeps-and-statistics.md, 'Sweeps'), 50 trials a point (the paper does "
              "not give the trials of its 'additional experiments'). k = 5% is one machine of 20, where KPB is MET.")

CLAIMS: tuple[Claim, ...] = (
    # Fig. 4, section 5.2
    _claim("fig4-kpb-best", "Fig. 4, section 5.2", "KPB gives the smallest makespan of the immediate-mode heuristics "
           f"({INCONSISTENT}).", "maheswaran-fig4", Best("kpb", "normalized_makespan"),
           paper="KPB best of MCT, MET, SA, KPB, "
                 "OLB", source="section 5.2 text on Fig. 4; section 6", note=FIG4_NOTE_KPB),
    _claim("fig4-kpb-slightly-better-than-mct", "Fig. 4, section 5.2", "KPB is better than MCT, but only slightly.",
           "maheswaran-fig4", slightly_better("kpb", "mct"), paper="KPB < MCT, only slightly",
           source="section 5.2 text on Fig. 4",
           note="'Only slightly' read as by less than 10% (Fig. 4's bars); the paper prints no number."),
    _claim("fig4-olb-far-worst", "Fig. 4", "OLB's makespan is far the worst of the immediate-mode heuristics.",
           "maheswaran-fig4", far_worse("olb", ("mct", "met", "sa", "kpb")),
           paper="OLB far worst (Fig. 4 bars); MET ahead of OLB in the inconsistent case (section 6)",
           source="Fig. 4; section 6", note="'Far' read as at least twice every other heuristic's makespan; the "
           "paper prints no number."),
    # Fig. 5, section 5.2: both readings of the semiconsistent matrix
    _claim("fig5-kpb-best", "Fig. 5, section 5.2", f"KPB still performs best with {SEMI}.",
           "maheswaran-fig5", Best("kpb", "normalized_makespan"), paper="KPB best", source="section 5.2 text on Fig. 5",
           note=FIG5_SORT_NOTE, readings=(SMALLEST,)),
    _claim("fig5-kpb-close-to-mct", "Fig. 5, section 5.2", f"KPB is closely followed by MCT with {SEMI}.",
           "maheswaran-fig5", slightly_better("kpb", "mct"), paper="KPB < MCT, closely",
           source="section 5.2 text on Fig. 5; section 6 ('only slightly better than the MCT')",
           note="'Closely' read as by less than 10%. " + FIG5_SORT_NOTE, readings=(SMALLEST,)),
    _claim("fig5-met-worst", "Fig. 5, section 5.2", f"MET performs the worst with {SEMI}.",
           "maheswaran-fig5", Best("met", "normalized_makespan", worst=True), paper="MET worst",
           source="section 5.2 text on Fig. 5", note=FIG5_SORT_NOTE, readings=(SMALLEST,)),
    _claim("fig5-olb-beats-met", "Fig. 5, section 6", f"OLB does better than MET with {SEMI} (the "
           "reverse of the inconsistent case).", "maheswaran-fig5", Better("olb", "met", "makespan"), paper="OLB < MET",
           source="section 6", note=FIG5_SORT_NOTE, readings=(SMALLEST,)),
    # KPB's k, section 5.2 after Fig. 5 (built-in sweep maheswaran-kpb-k)
    _claim("kpb-k-insensitive", "Section 5.2, after Fig. 5", "KPB is quite insensitive to k as long as k is above its "
           "minimum (where KPB is MET).", "maheswaran-fig5", K_INSENSITIVE, changes={"heuristics": ["kpb"]},
           vary={K: K_VALUES}, paper="insensitive above the minimum", source="section 5.2",
           note="'Quite insensitive' read as: the worst k above the minimum within a factor of 1.2 of the best, the "
                "factor the paper itself calls small. " + KPB_K_NOTE, readings=(SMALLEST,)),
    _claim("kpb-k-fivefold", "Section 5.2, after Fig. 5", "Doubling k from its minimum of 5% lowers the makespan by a "
           "factor of about five.", "maheswaran-fig5",
           Ratio(5.0, 10.0, "makespan", by=K, paper=5.0, tolerance=0.2), changes={"heuristics": ["kpb"]},
           vary={K: K_VALUES[:2]},
           paper="factor about 5", source="section 5.2",
           note="'About five' read as within 20%. Here about 2.3-fold. " + KPB_K_NOTE,
           readings=(SMALLEST,)),
    _claim("kpb-k-further-doubling", "Section 5.2, after Fig. 5", "A further doubling of k (10% to 20%) lowers the "
           "makespan by a factor of only about 1.2.", "maheswaran-fig5",
           Ratio(10.0, 20.0, "makespan", by=K, paper=1.2, tolerance=0.05), changes={"heuristics": ["kpb"]},
           vary={K: K_VALUES[1:3]}, paper="factor about 1.2", source="section 5.2",
           note="'About 1.2' read as within 5% (1.14-1.26). Here the makespan rises by about 7% from 10% to 20% "
                "instead. " + KPB_K_NOTE, readings=(SMALLEST,)),
    # Fig. 6, section 5.3
    _claim("fig6-sufferage-best", "Fig. 6, section 5.3", "Sufferage outperforms Min-min and Max-min (interval 10 s, "
           f"{INCONSISTENT}).", "maheswaran-fig6", Best("sufferage", "normalized_makespan"), paper="Sufferage best",
           source="section 5.3 text on Fig. 6; section 6"),
    _claim("fig6-sufferage-slightly-better-than-min-min", "Fig. 6, section 5.3", "Sufferage is only slightly better "
           "than Min-min.", "maheswaran-fig6", slightly_better("sufferage", "min-min"),
           paper="Sufferage < Min-min, only slightly", source="section 5.3 text on Fig. 6; section 6",
           note="'Only slightly' read as by less than 10%."),
    _claim("fig6-max-min-far-worst", "Fig. 6, section 5.3", "Max-min's makespan is much larger than the other two's.",
           "maheswaran-fig6", far_worse("max-min", ("min-min", "sufferage")), paper="Max-min much larger",
           source="section 5.3 text on Fig. 6; 'the Min-min performs much better than the Max-min' (Fig. 7 text)",
           note="'Much larger' read as at least twice; the paper prints no number."),
    # Fig. 7, section 5.3
    _claim("fig7-max-min-benefits-most", "Fig. 7, section 5.3",
           "Max-min benefits most from aging (aging constant 10, sigma).",
           "maheswaran-fig7", AGING_GAIN, paper="Max-min benefits most", source="section 5.3 text on Fig. 7",
           note="Benefit measured as each heuristic's makespan with aging over without, per trial. Aging costs Min-min "
                "and Sufferage a little here (their ratios with aging over without are above 1). Aging as read: "
                f"{READ}."),
    _claim("fig7-aging-halves-max-min", "Fig. 7", "Aging at least halves Max-min's makespan.", "maheswaran-fig7",
           Better("max-min (aging)", "max-min", "makespan", by=50.0), paper="Max-min benefits most (no number printed)",
           source="Fig. 7 "
                  "bars", note="The margin (at least half) is our reading of Fig. 7's bars; the paper prints no "
                               "number."),
    # Fig. 8, section 5.3
    *(_claim(f"fig8-count-similar-{h}", "Fig. 8, section 5.3", f"The fixed count strategy (a mapping every 40 waiting "
             f"tasks, kappa) gives results similar to the 10 s interval for {h.capitalize()}.", "maheswaran-fig8",
             Ratio(f"{h} (count 40)", h, "makespan", paper=1.0, tolerance=0.03), paper="similar (ratio about 1)",
             source="section 5.3 text on Fig. "
                    "8", note="'Similar' read as within 3%.")
      for h in ("min-min", "sufferage")),
    _claim("fig8-count-halves-max-min", "Fig. 8, section 5.3", "With the fixed count strategy Max-min's makespan drops "
           "to about 50% of the interval strategy's (2000 tasks, |K|).", "maheswaran-fig8",
           Ratio("max-min (count "
                 "40)", "max-min", "makespan", paper=0.5, tolerance=0.2), paper="about 50% (60% for 1000 tasks)",
           source="section 5.3 text on Fig. 8", note="'About 50%' read as within 20% (0.4-0.6). " + FIG8_NOTE),
    # Figs. 9-11, section 5.4
    _claim("fig9-batch-beats-immediate", "Fig. 9, section 5.4", f"At {HIGH}, batch heuristics (Min-min, Sufferage) are "
           "superior to immediate ones (MCT, KPB).", "maheswaran-fig9", batch_beats_immediate(),
           paper="batch < immediate", source="section 5.4 text on Fig. 9; section 6"),
    _claim("fig10-batch-beats-immediate", "Fig. 10, section 5.4", f"At {LOW}, batch heuristics still do better than "
           "immediate ones, by a smaller margin.", "maheswaran-fig10", batch_beats_immediate(),
           paper="batch < immediate, improvement nominal", source="Fig. 10; section 6",
           note="The paper calls the improvement 'nominal' at low rates; read as batch mode still ahead, by any "
                "margin."),
    _claim("fig10-gap-shrinks", "Fig. 10, section 5.4", "The difference between immediate and batch heuristics is "
           "smaller at the low arrival rate than at the high one.", "maheswaran-fig9", gap_rises(),
           vary={RATE: [LAMBDA["lambda_l"], LAMBDA["lambda_h"]]}, paper="gap at the low rate < gap at the high rate",
           source="section 5.4 text on Fig. 10",
           note="The gap is MCT's and KPB's paired makespan excess over Min-min (the figures' benchmark)."),
    _claim("fig10-kpb-close-to-sufferage", "Fig. 10, section 5.4", f"At {LOW}, KPB and Sufferage perform almost "
           "similarly.", "maheswaran-fig10", Ratio("kpb", "sufferage", "makespan", paper=1.0, tolerance=0.05),
           paper="KPB about equal to Sufferage", source="section 5.4 text on Fig. 10",
           note="'Almost similarly' read as within 5%."),
    _claim("fig11-batch-beats-immediate", "Fig. 11, section 5.4", f"At {TOP}, batch heuristics outperform immediate "
           "ones.", "maheswaran-fig11", batch_beats_immediate(), paper="batch < immediate",
           source="section 5.4 text on Fig. 11"),
    _claim("fig11-larger-margin", "Fig. 11, section 5.4", "Batch heuristics win by a larger margin at the highest "
           "arrival rate than at the high one.", "maheswaran-fig9", gap_rises(),
           vary={RATE: [LAMBDA["lambda_h"], LAMBDA["lambda_t"]]},
           paper="gap at the highest rate > gap at the high rate", source="section 5.4 text on Fig. 11",
           note="The gap is MCT's and KPB's paired makespan excess over Min-min (the figures' benchmark)."),
    _claim("fig11-makespan-larger-at-lower-rate", "Section 5.4, after Fig. 11", "The makespan of every heuristic is "
           "larger at a lower arrival rate.", "maheswaran-fig9",
           AllOf(*(Trend("makespan", h, RATE, rising=False) for h in ("mct", "kpb", "min-min", "sufferage")),
                 text="makespan of each of mct, kpb, min-min, sufferage falls as the arrival rate grows"),
           vary={RATE: [LAMBDA["lambda_l"], LAMBDA["lambda_h"], LAMBDA["lambda_t"]]}, paper="larger at lower rates",
           source="section 5.4 ('although not shown in the results here')",
           note="The paper states it without a figure; read at the low, high and highest "
                "arrival rates (lambda_l, lambda_h and lambda_t)."),
    _claim("rate-batch-gains", "Figs. 9-11, section 5.4", "Batch mode gains over immediate mode as the arrival rate "
           "grows.", "maheswaran-fig9", gap_rises(), vary={RATE: RATE_VALUES},
           paper="immediate approaches batch at low rates; batch wins by more at high rates",
           source="section 5.4; section 6", note="The built-in sweep `maheswaran-rate` (lambda_l, lambda_h, 0.005, "
           "lambda_t) with the figures' 50 trials, so that three of its points are the scenarios of Figs. 10, 9, 11."),
)
