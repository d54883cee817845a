"""The words kobook prints, one table per language, overridable with ``captions:``.

Labels are formats with ``{n}`` where the number goes: ``{n}장`` and
``Chapter {n}`` and ``第{n}章`` put it in different places.  A ``captions:``
value without ``{n}`` keeps its old meaning (``chapter: 장`` → ``{n}장``,
``figure: 그림`` → ``그림 {n}``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

LANGUAGES = ("ko", "en", "zh-Hans", "zh-Hant", "ja")

# Label kinds (take a number) and plain words.
LABELS = ("chapter", "section", "figure", "table", "equation", "listing", "part", "appendix")
SUFFIX_KINDS = {"chapter", "section"}

WORDS: dict[str, dict[str, str]] = {
    "ko": {
        "download": "내려받기",
        "colophon": "판권",
        "colophon-published": "발행",
        "colophon-author": "지은이",
        "colophon-translator": "옮긴이",
        "colophon-publisher-person": "펴낸이",
        "colophon-publisher": "펴낸곳",
        "colophon-registration": "출판 등록",
        "colophon-address": "주소",
        "colophon-contact": "연락처",
        "colophon-price": "정가",
        "chapter": "{n}장",
        "section": "{n}절",
        "figure": "그림 {n}",
        "table": "표 {n}",
        "equation": "식 ({n})",
        "listing": "예제 {n}",
        "part": "{n}부",
        "appendix": "부록 {n}",
        "caption-end": ".",
        "contents": "차례",
        "index": "찾아보기",
        "index-symbols": "기호·숫자",
        "image": "그림",
        "cover": "표지",
        "title-page": "속표지",
        "preface": "들어가며",
        "references": "참고 문헌",
        "by": "{names} 지음",
        "translated-by": "{names} 옮김",
        "original": "원서",
        "licence": "라이선스",
        "missing-image": "그림 없음",
        "toc-open": "차례 열기",
        "a11y-navigation": "차례와 제목으로 탐색할 수 있다.",
        "a11y-described": "모든 그림에 대체 텍스트가 있다.",
        "a11y-undescribed": "대체 텍스트가 없는 그림이 남아 있다.",
        "a11y-math": "수식은 MathML로 쓰였다.",
        "skip-link": "본문으로 건너뛰기",
        "pager": "이전/다음 장",
        "on-this-page": "이 장의 차례",
        "theme-toggle": "어두운 화면/밝은 화면",
        "copy-code": "코드 복사",
        "copied": "복사함",
        "anchor": "이 절의 링크",
        "search": "검색 (/)",
        "search-none": "찾은 곳이 없습니다",
        "search-failed": "검색 색인을 읽지 못했습니다",
        "list-separator": ", ",
        "callout-note": "참고",
        "callout-tip": "팁",
        "callout-warning": "주의",
        "callout-caution": "주의",
        "callout-important": "중요",
        "callout-danger": "경고",
        "callout-takeaway": "핵심",
        "callout-details": "자세히",
        "filename": "파일명",
        "appendices": "부록",
        "embed": "대화형 자료",
        "embed-missing": "내장 페이지 없음",
    },
    "en": {
        "download": "Download",
        "colophon": "Copyright",
        "colophon-published": "Published",
        "colophon-author": "Author",
        "colophon-translator": "Translator",
        "colophon-publisher-person": "Publisher",
        "colophon-publisher": "Published by",
        "colophon-registration": "Registration",
        "colophon-address": "Address",
        "colophon-contact": "Contact",
        "colophon-price": "Price",
        "chapter": "Chapter {n}",
        "section": "Section {n}",
        "figure": "Figure {n}",
        "table": "Table {n}",
        "equation": "Equation ({n})",
        "listing": "Listing {n}",
        "part": "Part {n}",
        "appendix": "Appendix {n}",
        "caption-end": ".",
        "contents": "Contents",
        "index": "Index",
        "index-symbols": "Symbols and numbers",
        "image": "Image",
        "cover": "Cover",
        "title-page": "Title page",
        "preface": "Preface",
        "references": "References",
        "by": "by {names}",
        "translated-by": "translated by {names}",
        "original": "Original",
        "licence": "Licence",
        "missing-image": "missing image",
        "toc-open": "Open the contents",
        "a11y-navigation": "The contents and the headings allow navigation.",
        "a11y-described": "Every image has a text alternative.",
        "a11y-undescribed": "Some images have no text alternative yet.",
        "a11y-math": "Formulas are written in MathML.",
        "skip-link": "Skip to the text",
        "pager": "Previous and next chapter",
        "on-this-page": "On this page",
        "theme-toggle": "Dark/light theme",
        "copy-code": "Copy the code",
        "copied": "Copied",
        "anchor": "Link to this section",
        "search": "Search (/)",
        "search-none": "No results",
        "search-failed": "The search index could not be loaded",
        "list-separator": ", ",
        "callout-note": "Note",
        "callout-tip": "Tip",
        "callout-warning": "Warning",
        "callout-caution": "Caution",
        "callout-important": "Important",
        "callout-danger": "Danger",
        "callout-takeaway": "Takeaway",
        "callout-details": "Details",
        "filename": "Filename",
        "appendices": "Appendices",
        "embed": "Interactive content",
        "embed-missing": "missing embedded page",
    },
    "zh-Hans": {
        "download": "下载",
        "colophon": "版权页",
        "colophon-published": "出版",
        "colophon-author": "作者",
        "colophon-translator": "译者",
        "colophon-publisher-person": "出版人",
        "colophon-publisher": "出版社",
        "colophon-registration": "出版登记",
        "colophon-address": "地址",
        "colophon-contact": "联系方式",
        "colophon-price": "定价",
        "chapter": "第{n}章",
        "section": "{n}节",
        "figure": "图 {n}",
        "table": "表 {n}",
        "equation": "式 ({n})",
        "listing": "代码 {n}",
        "part": "第{n}部分",
        "appendix": "附录 {n}",
        "caption-end": "",
        "contents": "目录",
        "index": "索引",
        "index-symbols": "符号与数字",
        "image": "图片",
        "cover": "封面",
        "title-page": "扉页",
        "preface": "前言",
        "references": "参考文献",
        "by": "{names} 著",
        "translated-by": "{names} 译",
        "original": "原书",
        "licence": "许可证",
        "missing-image": "图片缺失",
        "toc-open": "打开目录",
        "skip-link": "跳到正文",
        "pager": "上一章/下一章",
        "on-this-page": "本页目录",
        "theme-toggle": "深色/浅色",
        "copy-code": "复制代码",
        "copied": "已复制",
        "anchor": "本节链接",
        "search": "搜索 (/)",
        "search-none": "没有找到结果",
        "search-failed": "无法加载搜索索引",
        "list-separator": "、",
        "callout-note": "注",
        "callout-tip": "提示",
        "callout-warning": "警告",
        "callout-caution": "注意",
        "callout-important": "重要",
        "callout-danger": "危险",
        "callout-takeaway": "要点",
        "callout-details": "详情",
        "filename": "文件名",
        "appendices": "附录",
        "embed": "交互内容",
        "embed-missing": "嵌入页面缺失",
    },
    "zh-Hant": {
        "download": "下載",
        "colophon": "版權頁",
        "colophon-published": "出版",
        "colophon-author": "作者",
        "colophon-translator": "譯者",
        "colophon-publisher-person": "發行人",
        "colophon-publisher": "出版社",
        "colophon-registration": "出版登記",
        "colophon-address": "地址",
        "colophon-contact": "聯絡方式",
        "colophon-price": "定價",
        "chapter": "第{n}章",
        "section": "{n}節",
        "figure": "圖 {n}",
        "table": "表 {n}",
        "equation": "式 ({n})",
        "listing": "程式碼 {n}",
        "part": "第{n}部",
        "appendix": "附錄 {n}",
        "caption-end": "",
        "contents": "目錄",
        "index": "索引",
        "index-symbols": "符號與數字",
        "image": "圖片",
        "cover": "封面",
        "title-page": "扉頁",
        "preface": "前言",
        "references": "參考文獻",
        "by": "{names} 著",
        "translated-by": "{names} 譯",
        "original": "原書",
        "licence": "授權",
        "missing-image": "圖片遺失",
        "toc-open": "開啟目錄",
        "skip-link": "跳到正文",
        "pager": "上一章/下一章",
        "on-this-page": "本頁目錄",
        "theme-toggle": "深色/淺色",
        "copy-code": "複製程式碼",
        "copied": "已複製",
        "anchor": "本節連結",
        "search": "搜尋 (/)",
        "search-none": "沒有找到結果",
        "search-failed": "無法載入搜尋索引",
        "list-separator": "、",
        "callout-note": "註",
        "callout-tip": "提示",
        "callout-warning": "警告",
        "callout-caution": "注意",
        "callout-important": "重要",
        "callout-danger": "危險",
        "callout-takeaway": "要點",
        "callout-details": "詳情",
        "filename": "檔名",
        "appendices": "附錄",
        "embed": "互動內容",
        "embed-missing": "嵌入頁面遺失",
    },
    "ja": {
        "download": "ダウンロード",
        "colophon": "奥付",
        "colophon-published": "発行",
        "colophon-author": "著者",
        "colophon-translator": "訳者",
        "colophon-publisher-person": "発行者",
        "colophon-publisher": "発行所",
        "colophon-registration": "登録",
        "colophon-address": "住所",
        "colophon-contact": "連絡先",
        "colophon-price": "定価",
        "chapter": "第{n}章",
        "section": "{n}節",
        "figure": "図 {n}",
        "table": "表 {n}",
        "equation": "式 ({n})",
        "listing": "リスト {n}",
        "part": "第{n}部",
        "appendix": "付録 {n}",
        "caption-end": "",
        "contents": "目次",
        "index": "索引",
        "index-symbols": "記号・数字",
        "image": "画像",
        "cover": "表紙",
        "title-page": "扉",
        "preface": "はじめに",
        "references": "参考文献",
        "by": "{names} 著",
        "translated-by": "{names} 訳",
        "original": "原書",
        "licence": "ライセンス",
        "missing-image": "画像なし",
        "toc-open": "目次を開く",
        "skip-link": "本文へ移動",
        "pager": "前の章/次の章",
        "on-this-page": "このページの目次",
        "theme-toggle": "ダーク/ライト",
        "copy-code": "コードをコピー",
        "copied": "コピーしました",
        "anchor": "この節へのリンク",
        "search": "検索 (/)",
        "search-none": "見つかりませんでした",
        "search-failed": "検索インデックスを読み込めませんでした",
        "list-separator": "、",
        "callout-note": "メモ",
        "callout-tip": "ヒント",
        "callout-warning": "警告",
        "callout-caution": "注意",
        "callout-important": "重要",
        "callout-danger": "危険",
        "callout-takeaway": "ポイント",
        "callout-details": "詳細",
        "filename": "ファイル名",
        "appendices": "付録",
        "embed": "インタラクティブコンテンツ",
        "embed-missing": "埋め込みページなし",
    },
}


def language_of(tag: str | None) -> str:
    """The kobook language for a BCP 47 tag: ``ko-KR`` → ``ko``, ``zh-TW`` → ``zh-Hant``.

    Languages kobook has no table for print English words (and get no Korean
    rules); an empty tag is Korean, kobook's default.
    """
    text = (tag or "ko").strip().replace("_", "-")
    parts = [p.lower() for p in text.split("-") if p]
    if not parts:
        return "ko"
    head = parts[0]
    if head in ("ko", "kor"):
        return "ko"
    if head in ("ja", "jpn"):
        return "ja"
    if head in ("zh", "zho", "chi", "cmn", "yue"):
        if "hant" in parts or any(p in ("tw", "hk", "mo") for p in parts[1:]):
            return "zh-Hant"
        if head == "yue" and "hans" not in parts:
            return "zh-Hant"
        return "zh-Hans"
    return "en"


def label_format(value: str, kind: str) -> str:
    """A ``captions:`` value as a format: ``장`` → ``{n}장``, ``그림`` → ``그림 {n}``."""
    if "{n}" in value:
        return value
    if kind in SUFFIX_KINDS:
        return "{n}" + value
    if kind == "equation":
        return value + " ({n})"
    return value + " {n}"


@dataclass(frozen=True)
class Words:
    """The words of one language with the book's ``captions:`` overrides applied."""

    language: str = "ko"
    overrides: dict[str, str] = field(default_factory=dict)

    def word(self, key: str) -> str:
        if key in self.overrides:
            return self.overrides[key]
        return WORDS[self.language].get(key, WORDS["en"].get(key, key))

    def label(self, kind: str, number: str | int) -> str:
        """``label("figure", "3.2")`` → ``그림 3.2`` (``Figure 3.2``, ``图 3.2``)."""
        return label_format(self.word(kind), kind).replace("{n}", str(number))

    def affix(self, kind: str) -> tuple[str, str]:
        """What goes before and after the number (for templates that number by themselves)."""
        before, _, after = label_format(self.word(kind), kind).partition("{n}")
        return before, after

    def names(self, key: str, names: list[str]) -> str:
        """``names("by", ["A", "B"])`` → ``A, B 지음``."""
        return self.word(key).replace("{names}", self.word("list-separator").join(names))

    def caption(self, kind: str, number: str | int) -> str:
        """The label that starts a caption: ``그림 3.2.`` (Chinese and Japanese: no period)."""
        return self.label(kind, number) + self.word("caption-end")
