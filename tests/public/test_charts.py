"""Charts as inline SVG (league.public.charts): where the points go for known numbers, the
axis and its labels, gaps, and names that are text, never markup."""

from __future__ import annotations

import itertools
import re

import pytest

from league.public.charts import Geometry, Line, line_chart, nice_step, number, ticks, y_range

GEOMETRY = Geometry(width=360, height=200, left=40, right=20, top=20, bottom=40)  # a plot of 300 × 140


def places_chart(*lines: Line, steps=("1", "2", "3"), highest=None):
    return line_chart(
        ident="c",
        title="Miejsce po seriach",
        description="Miejsce po każdej serii",
        steps=steps,
        lines=lines,
        y_label="miejsce",
        x_label="seria",
        inverted=True,
        lowest=1,
        highest=highest,
        geometry=GEOMETRY,
    )


def points_of(svg: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', svg)]


def test_places_run_from_first_on_top_to_the_fields_size_at_the_bottom():
    chart = places_chart(Line("Anna", [5, 3, 1]), highest=5)

    # x: the three series across 300 units from 40; y: 1st at the top (20), 5th at the bottom (160)
    assert points_of(chart.svg) == [(40, 160), (190, 90), (340, 20)]
    assert 'd="M40 160 L190 90 L340 20"' in chart.svg


def test_the_axis_labels_1st_place_and_whole_steps_that_do_not_crowd_it():
    chart = places_chart(Line("Anna", [5, 3, 1]), highest=12)

    labels = re.findall(r'text-anchor="end">([^<]+)<', chart.svg)
    assert labels == ["1", "4", "6", "8", "10", "12"]


@pytest.mark.parametrize(
    ("values", "lowest", "expected_range", "expected_ticks"),
    [
        ([1, 46], 1, (1, 50, 10), [1, 10, 20, 30, 40, 50]),  # a hall of 46 players
        ([1, 4], 1, (1, 4, 1), [1, 2, 3, 4]),
        ([-30, 45], None, (-40, 60, 20), [-40, -20, 0, 20, 40, 60]),  # small points either side of zero
        ([0, 14.5], None, (0, 15, 5), [0, 5, 10, 15]),
        ([3, 3], None, (3, 4, 1), [3, 4]),  # one value: the axis still has a height
    ],
)
def test_axis_ranges_and_ticks(values, lowest, expected_range, expected_ticks):
    assert y_range(values, lowest=lowest) == expected_range
    assert ticks(*expected_range, lowest=lowest) == expected_ticks


@pytest.mark.parametrize(("span", "step"), [(0, 1), (3, 1), (11, 2), (45, 10), (170, 50), (1000, 200)])
def test_steps_are_one_two_or_five_times_a_power_of_ten(span, step):
    assert nice_step(span) == step


def test_places_end_at_the_fields_size_not_at_a_round_number_past_it():
    chart = places_chart(Line("Anna", [13, 15, 5]), highest=16)

    assert points_of(chart.svg)[1] == (190, 150.7)  # 15th of 16: 14 of 15 steps down the 140 units from 20
    assert re.findall(r'text-anchor="end">([^<]+)<', chart.svg) == ["1", "5", "10", "15"]


def test_a_missing_value_breaks_the_line_instead_of_bridging_it():
    chart = places_chart(Line("Ola", [2, None, 1]), highest=4)

    assert re.search(r'd="M40 [\d.]+ M340 20"', chart.svg)
    assert len(points_of(chart.svg)) == 2
    assert chart.legend[0][2] == ["2", "", "1"]


def test_one_step_sits_in_the_middle():
    chart = places_chart(Line("Anna", [1]), steps=("1",), highest=3)

    assert points_of(chart.svg) == [(190, 20)]


def test_names_and_texts_are_escaped():
    chart = line_chart(
        ident='x"><script>',
        title="<Ala & Ola>",
        description="a < b",
        steps=["<1>"],
        lines=[Line("<Ala & Ola>", [1])],
        y_label="&",
        x_label="<b>",
    )

    assert "<Ala" not in chart.svg and "<script>" not in chart.svg and "<b>" not in chart.svg
    assert '<title id="x&quot;&gt;&lt;script&gt;-title">&lt;Ala &amp; Ola&gt;</title>' in chart.svg
    assert "<title>&lt;Ala &amp; Ola&gt;</title>" in chart.svg
    assert "&lt;Ala &amp; Ola&gt;, &lt;1&gt;: 1" in chart.svg


def test_the_svg_names_itself_for_screen_readers_and_each_line_has_its_class():
    chart = places_chart(Line("Anna", [3, 2, 1]), Line("Jan", [1, 2, 3]), highest=4)

    assert chart.svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 360 200"')
    assert 'role="img" aria-labelledby="c-title c-desc"' in chart.svg
    assert '<desc id="c-desc">Miejsce po każdej serii</desc>' in chart.svg
    assert chart.svg.count('class="line"') == 2
    assert [entry[:2] for entry in chart.legend] == [("Anna", "line-0"), ("Jan", "line-1")]
    assert "<script" not in chart.svg


@pytest.mark.parametrize(("value", "shown"), [(3, "3"), (14.5, "14,5"), (3.333333, "3,33"), (-2.0, "−2")])
def test_numbers_are_written_the_polish_way(value, shown):
    assert number(value) == shown


def test_many_steps_are_labelled_every_few_steps_back_from_the_newest_without_overprinting():
    steps = [f"{day % 28 + 1:02d}.{day // 28 + 1:02d}" for day in range(100)]
    chart = places_chart(Line("Anna", [1] * 100), steps=steps, highest=3)

    labels = re.findall(r'<text x="([\d.]+)" y="\d+" text-anchor="middle">([^<]+)</text>', chart.svg)
    labels = [(float(x), text) for x, text in labels if text != "seria"]
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(labels)]

    assert labels[-1] == (340, steps[-1]) and 5 <= len(labels) <= 10
    assert max(gaps) - min(gaps) < 0.2 and min(gaps) >= 5 * 14 * 0.6  # five characters of 14 units side by side
    assert len(points_of(chart.svg)) == 100


def test_a_few_steps_are_each_labelled():
    chart = places_chart(Line("Anna", [5, 3, 1]), highest=5)

    assert re.findall(r'text-anchor="middle">(\d)</text>', chart.svg) == ["1", "2", "3"]
