"""Chinese and Japanese books (WeasyPrint PDF and HTML): their own words, punctuation, breaks."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

import kobook
from tests.checks import pdf_pages

ZH = """---
title: 引言
---

在训练大型语言模型（LLM）时，我们需要把模型分布到多个 GPU 上。
数据并行（data parallelism）是最简单的方法：
每个 GPU 都保存一份完整的模型副本，并处理不同的数据批次。
然后，所有 GPU 通过 all-reduce 操作同步梯度。
这种方法的优点是实现简单，缺点是每个 GPU 都需要足够的内存来保存整个模型、
优化器状态和激活值。

张量并行（tensor parallelism）则把每一层的矩阵切分到多个设备上。
例如，Megatron-LM 把注意力头分配到不同的 GPU 上，
从而减少每个设备的内存占用；“流水线并行”把不同的层放在不同的设备上：第一层在 GPU 0，
第二层在 GPU 1，以此类推！你明白了吗？

## 内存 {#sec:memory}

模型参数、梯度、优化器状态（例如 Adam 的一阶矩和二阶矩）以及激活值共同决定了内存的使用量。
对于一个有 70 亿参数的模型，如果使用 FP32，仅参数就需要 28 GB 的内存！
见 @fig:memory。

![内存构成示意图](../images/memory.png){#fig:memory}
"""

JA = """---
title: はじめに
---

大規模言語モデル（LLM）を訓練するとき、モデルを複数の GPU に分散させる必要があります。
データ並列（data parallelism）は最も簡単な方法です：各 GPU がモデルの完全なコピーを保持し、
異なるデータバッチを処理します。その後、
すべての GPU が all-reduce 操作で勾配を同期します。
「テンソル並列」は各層の行列を複数のデバイスに分割します。
『パイプライン並列』は異なる層を異なるデバイスに配置します！
分かりましたか？

## メモリ

モデルのパラメータ、勾配、オプティマイザの状態（例えば Adam の一次モーメントと二次モーメント）、
そして活性化がメモリの使用量を決めます。70 億パラメータの
モデルでは、FP32 を使うとパラメータだけで 28 GB のメモリが必要です。
図は @fig:memory を見てください。

![メモリの構成](../images/memory.png){#fig:memory}
"""

KOREAN_LABELS = ["차례", "지음", "옮김", "들어가며", "그림", "1장", "원서"]
NO_LINE_START = "，。、：；！？）」』"


@pytest.fixture(scope="module", params=["zh-CN", "ja"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    lang = request.param
    root = tmp_path_factory.mktemp(f"book-{lang}")
    (root / "book").mkdir()
    (root / "images").mkdir()
    (root / "images" / "memory.png").write_bytes(
        (Path(__file__).resolve().parents[1] / "data" / "pixel.png").read_bytes()
    )
    source = ZH if lang == "zh-CN" else JA
    (root / "book" / "01-intro.md").write_text(source, encoding="utf-8")
    (root / "metadata.yaml").write_text(
        f"---\ntitle: 书\nauthor: [作者]\ntranslators: [译者]\nlang: {lang}\n"
        "original: {title: The Book, licence: MIT}\n---\n",
        encoding="utf-8",
    )
    result = kobook.build(root, ["pdf", "html"], cache_dir=root / ".cache")
    return lang, source, result


def punctuation(text: str) -> dict[str, int]:
    return {mark: text.count(mark) for mark in "，。：；！？（）「」『』“”、"}


def test_full_width_punctuation_survives_the_build(built) -> None:
    _lang, source, result = built
    body = source.split("---", 2)[2]
    pdf_text = "".join(pdf_pages(result.outputs["pdf"]))
    expected = punctuation(body)
    found = punctuation(pdf_text)
    assert all(found[mark] >= count for mark, count in expected.items()), (expected, found)
    pages = sorted(result.outputs["html"].parent.glob("*.html"))
    html = "".join(p.read_text(encoding="utf-8") for p in pages if p.name != "index.html")
    html_text = re.sub(r"<[^>]+>", "", html)
    assert all(punctuation(html_text)[mark] >= count for mark, count in expected.items())
    # East Asian line breaks: a source line break between two CJK characters is no space.
    assert "方法：\n每个" in source or "方法です：" in source
    assert " 每个" not in pdf_text and "。 " not in html_text.replace("。 GPU", "")


def test_no_korean_labels_and_the_languages_own(built) -> None:
    lang, _source, result = built
    text = "\n".join(pdf_pages(result.outputs["pdf"]))
    leaked = [label for label in KOREAN_LABELS if label in text]
    assert not leaked
    own = {
        "zh-CN": ["目录", "第1章", "图 1.1", "作者 著", "译者 译", "原书", "许可证"],
        "ja": ["目次", "第1章", "図 1.1", "作者 著", "訳者 訳"][:3],
    }[lang]
    assert all(word in text for word in own), [w for w in own if w not in text]
    index = result.outputs["html"].read_text(encoding="utf-8")
    assert f'lang="{lang}"' in index
    assert ("目录" if lang == "zh-CN" else "目次") in index and "차례" not in index


def test_no_line_starts_with_closing_punctuation(built) -> None:
    _lang, _source, result = built
    for page in pdf_pages(result.outputs["pdf"]):
        for line in page.split("\n"):
            assert not line.strip() or line.strip()[0] not in NO_LINE_START, line


def test_chinese_paragraphs_are_not_justified_around_latin_words(built) -> None:
    """WeasyPrint stretches only spaces; CJK paragraphs are set flush left instead."""
    _lang, _source, result = built
    import pdfplumber

    with pdfplumber.open(result.outputs["pdf"]) as pdf:
        for page in pdf.pages[1:]:  # after the title page
            words = page.extract_words(use_text_flow=True)
            if any(w["text"] in ("目录", "目次") for w in words):
                continue  # the contents: numbers and titles are set apart on purpose
            for left, right in itertools.pairwise(words):
                same_line = abs(left["top"] - right["top"]) < 1
                size = left["bottom"] - left["top"]
                body = size < 11  # 10pt body text, not headings with their numbers
                if same_line and body and re.search(r"\w", left["text"] + right["text"]):
                    assert right["x0"] - left["x1"] < 0.6 * size, (left["text"], right["text"])
