"""Chinese and Japanese books through XeLaTeX: xeCJK, their own words, their punctuation."""

from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

import kobook
from tests.checks import pdf_pages, squash
from tests.conftest import REPO

HANGUL = re.compile("[\uac00-\ud7a3\u3131-\u318e]")
NOT_AT_LINE_START = "，。、：；！？）」』"
NOT_AT_LINE_END = "（「『"
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="[\d.]+" yMax="([\d.]+)">(.*)</word>')

CHINESE = (
    "# 显存与数据并行\n"
    "\n"
    "训练大型语言模型（LLM）时，显存往往是第一个瓶颈。模型参数、梯度和优化器状态都要放进 "
    "GPU 的显存里：以 Adam 为例，每个参数大约需要十六个字节。"
    "本章先说明「显存都花在哪里」，再介绍『数据并行』这一最简单的扩展方法。\n"
    "\n"
    "数据并行的思路很直接：每块 GPU 保存一份完整的模型副本，各自处理不同的小批量数据，"
    "然后在反向传播结束后用 all-reduce 把梯度平均。这样做的好处是实现简单（PyTorch 的 "
    "DistributedDataParallel 已经替我们完成了大部分工作）；坏处是每块 GPU "
    "仍然要放下整个模型！那么，我们该怎么办？答案是：把模型本身也切开。\n"
    "\n"
    "![每块 GPU 上的显存构成](images/memory.png){#fig:memory}\n"
    "\n"
    "如 @fig:memory 所示，激活值（activation）在长序列时占了大头。为了减少它，"
    "我们可以使用激活重计算（activation recomputation），"
    "也就是在反向传播时重新计算一部分前向结果，用时间换空间。ZeRO（Zero Redundancy "
    "Optimizer）则把优化器状态、梯度和参数分片到各个 GPU 上，进一步节省显存。"
    "流水线并行（pipeline parallelism）把模型按层切成几段，每段放在一块 GPU 上；"
    "张量并行（tensor parallelism）则把一个矩阵乘法拆到多块 GPU 上，靠 all-gather 和 "
    "reduce-scatter 交换结果。\n"
    "\n"
    "## 小结\n"
    "\n"
    "显存、通信、计算三者之间总要取舍：「没有免费的午餐」。选择哪种并行方式，"
    "取决于模型大小、序列长度和集群的网络带宽。\n"
)

JAPANESE = (
    "# メモリとデータ並列\n"
    "\n"
    "大規模言語モデル（LLM）を学習するとき、最初に問題になるのは GPU のメモリです。"
    "パラメータ、勾配、オプティマイザの状態はすべて GPU メモリに載せなければなりません："
    "Adam の場合、パラメータ一つあたり約十六バイトが必要です。"
    "この章ではまず「メモリはどこに使われるのか」を説明し、"
    "次に『データ並列』という最も簡単な方法を紹介します。\n"
    "\n"
    "データ並列の考え方は単純です：各 GPU がモデルの完全なコピーを持ち、"
    "異なるミニバッチを処理し、逆伝播のあとで all-reduce によって勾配を平均します。"
    "実装が簡単なのが利点です（PyTorch の DistributedDataParallel "
    "がほとんどの仕事をしてくれます）；欠点は、各 GPU "
    "がモデル全体を載せなければならないことです！では、どうすればよいでしょうか？答えは："
    "モデルそのものを分割することです。\n"
    "\n"
    "![各 GPU のメモリの内訳](images/memory.png){#fig:memory}\n"
    "\n"
    "@fig:memory のとおり、長い系列では活性化（activation）が大きな割合を占めます。"
    "それを減らすために、活性化の再計算（activation recomputation）を使うことができます。"
    "つまり、逆伝播のときに順伝播の一部を計算し直し、"
    "時間と引き換えにメモリを節約するのです。ZeRO（Zero Redundancy Optimizer）は、"
    "オプティマイザの状態、勾配、パラメータを各 GPU に分割して、"
    "さらにメモリを節約します。\n"
    "\n"
    "## まとめ\n"
    "\n"
    "メモリ、通信、計算のあいだには常にトレードオフがあります："
    "「ただより高いものはない」。どの並列化を選ぶかは、モデルの大きさ、系列の長さ、"
    "クラスタのネットワーク帯域によって決まります。\n"
)

BOOKS = {
    "zh": (
        {"title": "分布式训练入门", "author": "张三", "translators": ["李四"], "lang": "zh-CN"},
        CHINESE,
    ),
    "ja": (
        {"title": "分散学習入門", "author": "山田太郎", "translators": ["佐藤花子"], "lang": "ja"},
        JAPANESE,
    ),
}


def make(root: Path, metadata: dict[str, object], text: str) -> Path:
    import yaml

    (root / "book").mkdir(parents=True)
    (root / "images").mkdir()
    (root / "metadata.yaml").write_text(yaml.safe_dump(metadata, allow_unicode=True), "utf-8")
    (root / "book" / "01.md").write_text(text, encoding="utf-8")
    (root / "images" / "memory.png").write_bytes((REPO / "tests/data/pixel.png").read_bytes())
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, kobook.BuildResult]:
    results = {}
    for name, (metadata, text) in BOOKS.items():
        root = make(tmp_path_factory.mktemp(f"book-{name}"), metadata, text)
        results[name] = kobook.build(
            root, ["pdf"], engine="xelatex", cache_dir=root / "cache", out=root / "dist"
        )
    return results


def pdf_lines(pdf: Path) -> list[str]:
    """The PDF's lines, words grouped by where they sit on the page.

    pdftotext's own line splitting starts a new line where compressed
    full-width punctuation (」，) makes a glyph overlap the one before it; the
    words' boxes say which line they are really on.
    """
    out = subprocess.run(
        ["pdftotext", "-bbox", "-enc", "UTF-8", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines: dict[tuple[int, float], list[tuple[float, str]]] = defaultdict(list)
    page = 0
    for row in out.splitlines():
        if row.lstrip().startswith("<page "):
            page += 1
        word = re.search(
            r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="[\d.]+" yMax="([\d.]+)">(.*)</word>', row
        )
        if word:
            lines[(page, round(float(word.group(2)), 0))].append(
                (float(word.group(1)), word.group(3))
            )
    return ["".join(w for _, w in sorted(words)) for _, words in sorted(lines.items())]


@pytest.mark.parametrize("name", ["zh", "ja"])
def test_cjk_books_print_their_own_words(built: dict[str, kobook.BuildResult], name: str) -> None:
    text = "\n".join(pdf_pages(built[name].outputs["pdf"]))
    flat = squash(text)
    assert not HANGUL.search(text), HANGUL.findall(text)  # no 차례, 장, 지음, 옮김, 그림
    contents, figure, by = {
        "zh": ("目录", "图1.1", "张三著"),
        "ja": ("目次", "図1.1", "山田太郎著"),
    }[name]
    assert contents in flat and "第1章" in flat and figure in flat and by in flat


@pytest.mark.parametrize("name", ["zh", "ja"])
def test_full_width_punctuation_survives(built: dict[str, kobook.BuildResult], name: str) -> None:
    flat = squash("\n".join(pdf_pages(built[name].outputs["pdf"])))
    source = squash(BOOKS[name][1])
    for mark in "，。：（）「」『』；！？、":
        if mark in source:
            assert mark in flat, mark
    assert "（LLM）" in flat and "「" in flat


@pytest.mark.parametrize("name", ["zh", "ja"])
def test_line_start_and_end_prohibitions(built: dict[str, kobook.BuildResult], name: str) -> None:
    lines = [line for line in pdf_lines(built[name].outputs["pdf"]) if line.strip()]
    assert len(lines) > 15
    assert [line for line in lines if line[0] in NOT_AT_LINE_START] == []
    assert [line for line in lines if line[-1] in NOT_AT_LINE_END] == []


def test_cjk_books_use_xecjk_and_their_own_faces(built: dict[str, kobook.BuildResult]) -> None:
    for name, result in built.items():
        assert not [d for d in result.diagnostics if d.code.startswith(("GLYPH", "TEX"))]
        tex = next((result.outputs["pdf"].parents[1] / "cache" / "latex").rglob("book.tex"))
        latex = tex.read_text(encoding="utf-8")
        assert "\\usepackage{xeCJK}" in latex and "\\usepackage{kotex}" not in latex
        main = re.search(r"\\setCJKmainfont\{([^}]*)\}\[([^\n]*)\]", latex)
        assert main is not None
        if name == "zh":  # Noto Serif CJK SC: face 2 of the collection, bold too
            assert "FontIndex=2" in main.group(2) and "BoldFeatures={FontIndex=2}" in main.group(2)
        else:  # Noto Serif CJK JP: the collection's first face, by name
            assert main.group(1) == "Noto Serif CJK JP"
