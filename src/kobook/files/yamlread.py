"""One YAML reader for metadata, front matter and the glossary.

Errors name the file, line and column (shifted by ``line_offset`` when the
YAML sits inside a larger file), never a PyYAML traceback.  Everything is read
with :class:`BookLoader`, PyYAML's safe loader made strict where it is silent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .. import limits
from ..errors import KobookError


class YamlLimitError(yaml.composer.ComposerError):
    """Aliases expanding to too many values, or nesting too deep (LIMIT008)."""


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping names the same key twice; PyYAML would keep the last one silently."""

    def __init__(self, key: str, first: yaml.Mark, second: yaml.Mark) -> None:
        super().__init__(None, first, f"duplicate key '{key}'", second)
        self.key = key


class BookLoader(yaml.SafeLoader):
    """The one loader for book files: ``yaml.SafeLoader`` with two mistakes caught.

    * A key written twice in one mapping is an error (both lines are reported):
      in a metadata file it is almost always an edit that went to the wrong place.
    * A timestamp-looking value that is not a real date (``2024-13-45``) stays
      text instead of raising ``ValueError`` from deep inside PyYAML; the metadata
      check then reports it where it matters (``date:``).
    * Aliases (``*name``) may add at most ``limits.MAX_YAML_ALIAS_NODES`` values
      and lists and mappings nest at most ``limits.MAX_YAML_DEPTH`` deep: a
      370-byte "billion laughs" file expands to 387 million values (2.8 GB,
      then ``MemoryError``) in whatever walks it, and ``'[' * 10000`` makes
      PyYAML's composer recurse past Python's limit.  Both are refused while
      composing, before any value is built; an alias that refers to the value
      containing it (an endless value) is refused too.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.alias_values = 0  # values added by aliases so far
        self.depth = 0
        self.sizes: dict[int, int] = {}  # id(node) -> values in it, aliases expanded

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            target = self.anchors.get(event.anchor)
            if target is not None:
                self.alias_values += self.expanded_size(target, event.start_mark)
                if self.alias_values > limits.MAX_YAML_ALIAS_NODES:
                    raise YamlLimitError(
                        None,
                        None,
                        f"aliases (*{event.anchor}) expand to more than "
                        f"{limits.MAX_YAML_ALIAS_NODES} values",
                        event.start_mark,
                    )
            return super().compose_node(parent, index)
        self.depth += 1
        try:
            if self.depth > limits.MAX_YAML_DEPTH:
                raise YamlLimitError(
                    None,
                    None,
                    f"lists and mappings nest more than {limits.MAX_YAML_DEPTH} deep",
                    self.peek_event().start_mark,
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def expanded_size(self, node: yaml.Node, mark: yaml.Mark) -> int:
        """How many values ``node`` stands for, aliases expanded (memoised, not recursive)."""
        sizes = self.sizes
        stack: list[tuple[yaml.Node, bool]] = [(node, False)]
        while stack:
            item, children_done = stack.pop()
            if id(item) in sizes:
                continue
            if isinstance(item, (yaml.SequenceNode, yaml.MappingNode)) and item.end_mark is None:
                raise YamlLimitError(
                    None, None, "an alias refers to the value that contains it", mark
                )
            children = yaml_children(item)
            if children_done:
                sizes[id(item)] = 1 + sum(sizes[id(child)] for child in children)
            else:
                stack.append((item, True))
                stack.extend((child, False) for child in children if id(child) not in sizes)
        return sizes[id(node)]

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Mark] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue  # '<<' merges may override on purpose; complex keys PyYAML refuses
            key = self.construct_object(key_node)
            if key in seen:
                raise DuplicateKeyError(str(key), seen[key], key_node.start_mark)
            seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> Any:
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError:
            return self.construct_scalar(node)


BookLoader.add_constructor("tag:yaml.org,2002:timestamp", BookLoader.construct_yaml_timestamp)


class ToolLoader(BookLoader):
    """:class:`BookLoader` for another tool's own files (``mkdocs.yml``, ``_quarto.yml``):
    their tags (``!ENV [VAR, default]``, ``!!python/name:…``, ``!expr …``) are read, never
    run: ``!ENV`` gives its default, any other tag its text (or nothing)."""


def _env(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.SequenceNode) and len(node.value) > 1:
        return loader.construct_object(node.value[-1])
    return None


def _tag_text(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    return None


ToolLoader.add_constructor("!ENV", _env)
ToolLoader.add_multi_constructor("tag:yaml.org,2002:python/", _tag_text)
ToolLoader.add_multi_constructor("!", _tag_text)


def yaml_children(node: yaml.Node) -> list[yaml.Node]:
    """The nodes directly inside ``node`` (a mapping's keys and values)."""
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def parse_yaml(
    text: str,
    path: Path | None,
    what: str,
    code: str,
    *,
    line_offset: int = 0,
    loader: type[BookLoader] = BookLoader,
) -> Any:
    """Load ``text`` with :class:`BookLoader` (or a subclass, for another tool's own tags);
    bad YAML is a :class:`KobookError` at file:line."""
    try:
        return yaml.load(text, Loader=loader)  # a SafeLoader
    except DuplicateKeyError as exc:
        first = exc.context_mark.line + 1 + line_offset if exc.context_mark else 0
        second = exc.problem_mark.line + 1 + line_offset if exc.problem_mark else 0
        raise KobookError(
            f"{what} names '{exc.key}' twice (lines {first} and {second}); "
            "YAML would silently keep only the last",
            code="CFG014",
            file=path,
            line=second,
            col=(exc.problem_mark.column + 1) if exc.problem_mark else 0,
            hint=f"keep one '{exc.key}:' and delete the other",
        ) from None
    except YamlLimitError as exc:
        mark = exc.problem_mark
        raise KobookError(
            f"{what}: {exc.problem}",
            code="LIMIT008",
            file=path,
            line=(mark.line + 1 + line_offset) if mark else 0,
            col=(mark.column + 1) if mark else 0,
            hint="write the values out: a book's YAML needs neither aliases of aliases "
            "nor deep nesting",
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise KobookError(
            f"{what} is not valid YAML: {exc.problem}",
            code=code,
            file=path,
            line=(mark.line + 1 + line_offset) if mark else 0,
            col=(mark.column + 1) if mark else 0,
            hint="check indentation and quote values that contain ':' or '#'",
        ) from None
    except yaml.YAMLError as exc:
        raise KobookError(f"{what} is not valid YAML: {exc}", code=code, file=path) from None
