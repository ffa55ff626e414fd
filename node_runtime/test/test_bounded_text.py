# SPDX-License-Identifier: Apache-2.0
"""bounded(), clip(), clip_repr(), the one wording of cuts and counts, RateLimiter."""

import threading

from node_runtime.bounded_text import bounded, clip, clip_repr, cut_marker, ELLIPSIS, MAX_TEXT, \
    RateLimiter, suppressed_note
import pytest


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_bounded_keeps_short_text_and_counts_the_cut():
    assert bounded('abc') == 'abc'
    assert bounded(12345, limit=3) == f'123{ELLIPSIS}(5 chars)'
    long = 'x' * (MAX_TEXT + 50)
    assert bounded(long) == 'x' * MAX_TEXT + f'{ELLIPSIS}({MAX_TEXT + 50} chars)'


def test_clip_stays_within_the_limit_and_notes_the_length():
    assert clip('short', 10) == 'short'
    out = clip('y' * 1000, 40)
    assert len(out) == 40
    assert out.endswith(f'{ELLIPSIS}(1000 chars)')
    assert out.startswith('y' * (40 - len(f'{ELLIPSIS}(1000 chars)')))
    # A limit below the note's length still says how long the text was.
    assert clip('z' * 1000, 3) == f'{ELLIPSIS}(1000 chars)'


def test_clip_repr_quotes_and_cuts():
    assert clip_repr("it's", 10) == repr("it's")
    assert clip_repr('\x00' * 100, 4) == repr('\x00' * 4) + f'{ELLIPSIS}(100 chars)'


def test_one_wording_for_a_cut_and_for_held_back_repeats():
    assert cut_marker(1000) == f'{ELLIPSIS}(1000 chars)'
    assert suppressed_note(0) == ''
    assert suppressed_note(7) == ' (7 similar suppressed)'
    # Every clipper ends its cut with the same marker.
    for out in (bounded('q' * 300, 10), clip('q' * 300, 40), clip_repr('q' * 300, 10)):
        assert out.endswith(cut_marker(300)), out
    # Not only strings: any object, via str().
    assert clip(list(range(100)), 30).endswith(cut_marker(len(str(list(range(100))))))


def test_rate_limiter_one_per_period_per_key_with_suppressed_counts():
    clock = Clock()
    limiter = RateLimiter(1.0, clock=clock)
    assert limiter.allow('a') == (True, 0)
    assert limiter.allow('a') == (False, 0)
    assert limiter.allow('a') == (False, 0)
    assert limiter.allow('b') == (True, 0)      # another reason is not held back
    clock.t += 0.999
    assert limiter.allow('a') == (False, 0)
    clock.t += 0.001
    assert limiter.allow('a') == (True, 3)      # the three repeats ride on this one
    assert limiter.allow('b') == (True, 0)
    assert limiter.suppressed == 3


@pytest.mark.parametrize('on_full', ['clear', 'oldest', 'merge'])
def test_rate_limiter_table_stays_bounded(on_full):
    clock = Clock()
    limiter = RateLimiter(1.0, max_keys=3, clock=clock, on_full=on_full)
    for i in range(100):
        limiter.allow(f'k{i}')
    assert len(limiter._keys) <= 4     # merge: the three first keys and 'other'


def test_rate_limiter_full_policies():
    clock = Clock()
    clear = RateLimiter(1.0, max_keys=2, clock=clock, on_full='clear')
    clear.allow('a'), clear.allow('b')
    assert clear.allow('c') == (True, 0)
    assert clear.allow('a') == (True, 0)        # forgotten with the rest
    assert clear.allow('c') == (False, 0)

    oldest = RateLimiter(1.0, max_keys=2, clock=clock, on_full='oldest')
    oldest.allow('a'), oldest.allow('b')
    oldest.allow('c')                           # forgets 'a', the oldest
    assert oldest.allow('b') == (False, 0)
    assert oldest.allow('a') == (True, 0)

    merge = RateLimiter(1.0, max_keys=2, clock=clock, on_full='merge', merge_key='other')
    merge.allow('a'), merge.allow('b')
    assert merge.key('c') == 'other'
    assert merge.key('a') == 'a'
    assert merge.allow('c') == (True, 0)
    assert merge.allow('d') == (False, 0)       # counted under 'other'
    clock.t += 1.0
    assert merge.allow('e') == (True, 1)


def test_rate_limiter_unbounded_and_bad_policy():
    limiter = RateLimiter(1.0, max_keys=None, clock=Clock())
    for i in range(2000):
        assert limiter.allow(i) == (True, 0)
    with pytest.raises(ValueError):
        RateLimiter(on_full='drop')


def test_rate_limiter_counts_every_event_across_threads():
    clock = Clock()
    limiter = RateLimiter(1.0, clock=clock)
    allowed = []

    def hammer():
        for _ in range(1000):
            allowed.append(limiter.allow('k')[0])
    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert allowed.count(True) == 1
    assert limiter.suppressed == 3999
    clock.t += 1.0
    assert limiter.allow('k') == (True, 3999)
