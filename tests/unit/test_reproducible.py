"""The date policy of reproducible builds (kobook.reproducible) and WeasyPrint's image names."""

from __future__ import annotations

import datetime

import pytest

from kobook.errors import KobookError
from kobook.lang.dates import build_date
from kobook.model import Config
from kobook.reproducible import latex_environment, output_epoch, source_date_epoch, w3c_datetime
from kobook.write.weasyprint.reproducible import content_id

NOV_21 = 1795219200  # 2026-11-21 00:00:00 UTC


@pytest.mark.parametrize(("value", "expected"), [("1795219200", NOV_21), ("0", 0), ("", None)])
def test_source_date_epoch_reads_integers(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: int | None
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    assert source_date_epoch() == expected


def test_source_date_epoch_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert source_date_epoch() is None
    assert Config(raw={}).output_epoch is None


@pytest.mark.parametrize(
    "value", ["yesterday", "2026-11-21", "1.5", "-1", " 1795219200", "1e9", "99999999999999999999"]
)
def test_malformed_source_date_epoch_is_env002(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """reproducible-builds.org: a malformed value must fail the build, not be ignored."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    with pytest.raises(KobookError) as caught:
        source_date_epoch()
    assert caught.value.code == "ENV002"
    assert "SOURCE_DATE_EPOCH" in str(caught.value) and repr(value) in str(caught.value)
    with pytest.raises(KobookError):
        build_date()  # `date: today` too


def test_output_epoch_prefers_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert output_epoch(datetime.date(2026, 11, 21)) == 1700000000
    assert Config(raw={"date": "2026-11-21"}).output_epoch == 1700000000
    assert Config(raw={}).output_epoch == 1700000000


def test_without_source_date_epoch_the_book_date_or_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert Config(raw={"date": "2026-11-21"}).output_epoch == NOV_21
    assert Config(raw={"date": datetime.date(2026, 11, 21)}).output_epoch == NOV_21
    assert Config(raw={"date": "2026년 봄"}).output_epoch is None  # text, not a date
    assert Config(raw={"date": ""}).output_epoch is None


def test_w3c_datetime() -> None:
    assert w3c_datetime(NOV_21 + 3661) == "2026-11-21T01:01:01Z"


def test_latex_environment_always_pins_xdvipdfmx() -> None:
    base = {"PATH": "/bin", "FORCE_SOURCE_DATE": "1"}
    dated = latex_environment(base, NOV_21)
    assert dated["SOURCE_DATE_EPOCH"] == str(NOV_21) and dated["FORCE_SOURCE_DATE"] == "1"
    # No date: xdvipdfmx still needs one for stable subset tags and /ID, but \today
    # (asked for in raw LaTeX) is not forced to 1970.
    undated = latex_environment(base, None)
    assert undated["SOURCE_DATE_EPOCH"] == "0" and "FORCE_SOURCE_DATE" not in undated
    assert undated["PATH"] == "/bin" and base["FORCE_SOURCE_DATE"] == "1"


def test_image_ids_come_from_the_bytes_not_the_url() -> None:
    assert content_id(b"png bytes", "none") == content_id(b"png bytes", "none")
    assert content_id(b"png bytes", "none") != content_id(b"other bytes", "none")
    assert content_id(b"png bytes", "none") != content_id(b"png bytes", (90, False))
