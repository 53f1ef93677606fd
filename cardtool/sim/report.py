"""Old home of the balance report, kept so that importers outside cardtool/sim keep working: the
balance report is cardtool.sim.balance_report, compare's report cardtool.sim.compare_report, numbers
in words cardtool.sim.wording, and file writing cardtool.sim.outputs. New code imports those.
"""

from cardtool.sim.balance_report import (BOT_RATE_RULE, PAGE_TITLE, cards_csv, ending_counts, run_json,  # noqa: F401
                                         simulation_context, simulation_files, summary_json, terminal_rates)
from cardtool.sim.compare_report import comparison_context, comparison_files  # noqa: F401
from cardtool.sim.outputs import render_html, render_pdf, write_outputs  # noqa: F401
from cardtool.sim.wording import (diff_json, number, p_text, percent, points_diff, rate_diff,  # noqa: F401
                                  rate_json, rate_text, seat_names)
