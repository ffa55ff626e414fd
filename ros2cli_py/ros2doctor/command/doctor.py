# SPDX-License-Identifier: Apache-2.0
"""``ros2 doctor`` / ``ros2 wtf``: run the checks, print the reports, or run a verb."""

from ros2doctor.api import _entry_points
from ros2doctor.api import _instantiate
from ros2doctor.api import generate_reports
from ros2doctor.api import run_checks
from ros2doctor.api import shared_graph
from ros2doctor.api.format import format_print

VERBS_GROUP = 'ros2doctor.verb'


def _verbs() -> dict:
    """Return {name: verb extension} from the ``ros2doctor.verb`` entry points (+ hello)."""
    verbs = {}
    for entry_point in _entry_points(VERBS_GROUP):
        verb = _instantiate(entry_point, 'Verb')
        if verb is not None:
            verb.NAME = entry_point.name
            verbs[entry_point.name] = verb
    if 'hello' not in verbs:    # e.g. run from a source tree: no installed entry points
        from ros2doctor.verb.hello import HelloVerb
        verbs['hello'] = HelloVerb()
    return dict(sorted(verbs.items()))


class DoctorCommand:
    """Check ROS setup and other potential issues."""

    def add_arguments(self, parser, cli_name: str) -> None:
        """Add ros2doctor's options and its verbs."""
        group = parser.add_mutually_exclusive_group(required=False)
        group.add_argument('--report', '-r', action='store_true', help='Print all reports.')
        group.add_argument('--report-failed', '-rf', action='store_true',
                           help='Print reports of failed checks only.')
        parser.add_argument('--exclude-packages', '-ep', action='store_true',
                            help='Exclude package checks or report.')
        parser.add_argument('--include-warnings', '-iw', action='store_true',
                            help='Include warnings as failed checks. Warnings are ignored by '
                                 'default.')
        verbs = parser.add_subparsers(title='Commands', metavar='Commands')
        for name, verb in _verbs().items():
            doc = (verb.__doc__ or '').strip().splitlines()
            verb_parser = verbs.add_parser(name, help=doc[0] if doc else None,
                                           description=(verb.__doc__ or '').strip() or None)
            verb.add_arguments(verb_parser, f'{cli_name} {name}')
            verb_parser.set_defaults(_verb=verb)

    def main(self, *, parser, args) -> int:
        """Run a verb, or the checks (and reports) as the options say; returns 0."""
        verb = getattr(args, '_verb', None)
        if verb is not None:
            return verb.main(args=args) or 0
        with shared_graph():
            if args.report:
                for report in generate_reports(exclude_packages=args.exclude_packages):
                    format_print(report)
                return 0
            categories, failed, total = run_checks(include_warnings=args.include_warnings,
                                                   exclude_packages=args.exclude_packages)
            if failed:
                print(f'\n{failed}/{total} check(s) failed\n')
                print('Failed modules:', *sorted(categories))
            else:
                print(f'\nAll {total} checks passed\n')
            if args.report_failed and failed:
                for report in generate_reports(categories=categories,
                                               exclude_packages=args.exclude_packages):
                    format_print(report)
        return 0


class WtfCommand(DoctorCommand):
    """Use `wtf` as alias to `doctor`."""
