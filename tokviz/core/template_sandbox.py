"""The bounded Jinja sandbox a chat template renders in.

It is transformers' environment (jinja2's ``ImmutableSandboxedEnvironment`` with ``trim_blocks``,
``lstrip_blocks``, loop controls, ``raise_exception``, ``tojson``, ``strftime_now``), plus checks that
refuse, before the work starts, any single operation that would build a huge value or hold the
interpreter for minutes in one C call: big-integer powers and products, string and list repetition
and concatenation, ``%`` and ``str.format`` widths, ``indent``/``center``/``join``/``replace``/``batch``
and the ``str`` methods that pad, repeat or expand (``center``, ``ljust``, ``rjust``, ``zfill``,
``expandtabs``, ``replace``, ``join``, ``translate``). A loop that runs too long is stopped by a
line-level deadline (a trace hook) and the output is bounded as it is produced.

These checks make the common bombs fail fast with a clear message; they are not the last line. The
template process (:mod:`tokviz.core.template_process`) runs this module under a memory limit and kills
it at a hard deadline, which stops whatever the checks miss.

Imports nothing but jinja2 and the standard library, so the template process starts fast.

>>> render_bounded("{{ messages[0].content * 2 }}", {"messages": [{"role": "user", "content": "ab"}]})
'abab'
"""

from __future__ import annotations

import functools
import json
import re
import sys
import time
import types
from datetime import datetime
from typing import Any

from tokviz.core.errors import message_of, user_message

RENDER_SECONDS = 2.0  # a chat template renders in milliseconds; seconds means a runaway loop
RENDER_CHARS = 2_000_000  # bound on the rendered prompt (and on any one string or list the template builds)
INT_BITS = 100_000  # bound on a number the template computes (~30,000 digits; no template needs more)
SMALL_STRING = 100  # bound on a JSON indent, separator or wrap string
SMALL_COUNT = 100_000  # jinja2's own bound on range(); also on batch() and slice() counts


class TemplateFailure(Exception):
    """A template that failed or was stopped; ``str(err)`` is the complete message for the user."""


class TemplateOutOfMemory(TemplateFailure):
    """The render ran out of memory (the process that ran it is best replaced)."""


class _Runaway(Exception):
    """Raised inside a render by a bound; reported as "the chat template was stopped: ..."."""


def _number(n: Any) -> str:
    """A number for a message, short even when it is astronomically big."""
    if isinstance(n, int) and n.bit_length() > 64:
        return f"a {n.bit_length():,}-bit number"
    return f"{n:,}" if isinstance(n, int) else repr(n)


def _check_size(size: int, what: str) -> None:
    if size > RENDER_CHARS:
        raise _Runaway(f"{what} of over {RENDER_CHARS:,} characters or items")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse ``*``, ``**``, ``+`` and ``%`` whose result would be huge or take long to compute."""
    sized = (str, bytes, list, tuple)
    if operator == "*":
        for seq, n in ((left, right), (right, left)):
            if isinstance(seq, sized) and _is_int(n) and len(seq) * n > RENDER_CHARS:
                raise _Runaway(f"the template repeats a value {_number(n)} times (over {RENDER_CHARS:,} items)")
        if _is_int(left) and _is_int(right) and left.bit_length() + right.bit_length() > INT_BITS:
            raise _Runaway(f"the template multiplies numbers into one of over {INT_BITS:,} bits")
    elif operator == "**":
        if _is_int(left) and _is_int(right) and right > 0 and abs(left) > 1 \
                and (right.bit_length() > 32 or right * abs(left).bit_length() > INT_BITS):
            raise _Runaway(f"the template raises a number to the power of {_number(right)} "
                           f"(the result would have over {INT_BITS:,} bits)")
    elif operator == "+":
        if isinstance(left, sized) and isinstance(right, sized):
            _check_size(len(left) + len(right), "the template joins two values into one")
    elif operator == "%" and isinstance(left, (str, bytes)):
        _check_printf(left, right)


# a printf-style conversion: %[(key)][flags][width][.precision][length]type
_PRINTF = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?[a-zA-Z%]")


def _check_width(digits: str) -> None:
    if len(digits) > 9 or int(digits) > RENDER_CHARS:
        raise _Runaway(f"the template formats a value {int(digits):,} characters wide (over {RENDER_CHARS:,})"
                       if len(digits) <= 4300 else "the template formats a value astronomically wide")


def _check_printf(fmt: str | bytes, args: Any) -> None:
    """``'%1000000000s' % x`` (and ``'%*s' % (10**9, x)``) is refused before it pads."""
    text = fmt.decode("latin-1") if isinstance(fmt, bytes) else fmt
    starred = False
    for width, precision in _PRINTF.findall(text):
        for part in (width, precision):
            if part == "*":
                starred = True
            elif part:
                _check_width(part)
    if starred:
        for value in args if isinstance(args, tuple) else (args,):
            if _is_int(value) and abs(value) > RENDER_CHARS:
                raise _Runaway(f"the template formats a value {_number(abs(value))} characters wide "
                               f"(over {RENDER_CHARS:,})")


def _check_format_spec(spec: str) -> None:
    """A ``str.format`` field's spec (``{:>1000000000}``, ``{:.1000000000f}``): every number in it is a
    fill width or a precision, so none may be huge."""
    for digits in re.findall(r"\d+", spec):
        _check_width(digits)


def _count(s: str | bytes, old: str | bytes, count: Any) -> int:
    found = s.count(old) if old else len(s) + 1
    return min(found, count) if _is_int(count) and count >= 0 else found


def _check_str_method(owner: str | bytes, name: str, args: tuple, kwargs: dict) -> tuple:
    """Refuse a ``str``/``bytes`` method call whose result would be huge; returns the arguments to call
    with (an iterator given to ``join`` is read into a list first, to be measured)."""
    first = args[0] if args else None
    if name in ("center", "ljust", "rjust", "zfill"):
        width = kwargs.get("width", first)
        if _is_int(width):
            _check_size(width, f"the template pads a value with {name}() into one")
    elif name == "expandtabs":
        size = kwargs.get("tabsize", 8 if first is None else first)
        if _is_int(size):
            tab = "\t" if isinstance(owner, str) else b"\t"
            _check_size(len(owner) + owner.count(tab) * max(size, 0), "the template expands tabs into a value")
    elif name == "replace" and len(args) >= 2 and isinstance(args[0], type(owner)) \
            and isinstance(args[1], type(owner)):
        count = kwargs.get("count", args[2] if len(args) > 2 else -1)
        grows = len(args[1]) - len(args[0])
        _check_size(len(owner) + _count(owner, args[0], count) * max(grows, 0),
                    "the template replaces text into a value")
    elif name == "join" and args:
        items = list(args[0])
        _check_size(len(owner) * max(len(items) - 1, 0) + sum(len(x) for x in items if isinstance(x, type(owner))),
                    "the template joins values into one")
        args = (items, *args[1:])
    elif name == "translate" and isinstance(first, dict):
        longest = max((len(v) for v in first.values() if isinstance(v, (str, bytes))), default=1)
        _check_size(len(owner) * max(longest, 1), "the template translates text into a value")
    return args


def _bounded_filters(env) -> None:
    """Replace the filters that can build huge values with ones that check first."""
    import jinja2
    from jinja2.filters import sync_do_join, sync_do_slice

    base = dict(env.filters)

    def indent(s, width=4, first=False, blank=False):
        text = str(s)
        step = len(width) if isinstance(width, str) else width
        if _is_int(step):
            _check_size(len(text) + (text.count("\n") + 1) * max(step, 0), "the template indents text into a value")
        return base["indent"](s, width, first, blank)

    def center(value, width=80):
        if _is_int(width):
            _check_size(width, "the template centers a value in one")
        return base["center"](value, width)

    def format_(value, *args, **kwargs):
        _check_printf(str(value), kwargs or args)
        return base["format"](value, *args, **kwargs)

    @jinja2.pass_eval_context
    def replace(eval_ctx, s, old, new, count=None):
        text, old_s, new_s = str(s), str(old), str(new)
        grows = len(new_s) - len(old_s)
        _check_size(len(text) + _count(text, old_s, count) * max(grows, 0), "the template replaces text into a value")
        return base["replace"](eval_ctx, s, old, new, count)

    @jinja2.pass_eval_context
    def join(eval_ctx, value, d="", attribute=None):
        items = list(value)
        sep = str(d)
        _check_size(len(sep) * max(len(items) - 1, 0) + sum(len(x) for x in items if isinstance(x, str)),
                    "the template joins values into one")
        return sync_do_join(eval_ctx, items, d, attribute)

    def batch(value, linecount, fill_with=None):
        if _is_int(linecount) and linecount > SMALL_COUNT:
            raise _Runaway(f"the template makes batches of {_number(linecount)} items (over {SMALL_COUNT:,})")
        return base["batch"](value, linecount, fill_with)

    def slice_(value, slices, fill_with=None):
        if _is_int(slices) and slices > SMALL_COUNT:
            raise _Runaway(f"the template cuts a value into {_number(slices)} slices (over {SMALL_COUNT:,})")
        return sync_do_slice(value, slices, fill_with)

    def wordwrap(s, width=79, break_long_words=True, wrapstring=None, break_on_hyphens=True):
        _check_small(wrapstring, "a wordwrap line separator")
        return base["wordwrap"](env, s, width, break_long_words, wrapstring, break_on_hyphens)

    env.filters.update(indent=indent, center=center, format=format_, replace=replace, join=join, batch=batch,
                       slice=slice_, wordwrap=wordwrap, tojson=_tojson)


def _check_small(value: Any, what: str) -> None:
    if _is_int(value) and value > SMALL_STRING or isinstance(value, str) and len(value) > SMALL_STRING:
        shown = _number(value) if _is_int(value) else f"{len(value):,} characters"
        raise _Runaway(f"the template asks for {what} of {shown} (over {SMALL_STRING})")


def _tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    # transformers' tojson: no HTML escaping, non-ASCII kept
    _check_small(indent, "a JSON indent")
    for sep in separators if isinstance(separators, (list, tuple)) else ():
        _check_small(sep, "a JSON separator")
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _lipsum(n=5, html=True, min=20, max=100):  # noqa: A002 - jinja2's own parameter names
    from jinja2.utils import generate_lorem_ipsum

    if not all(_is_int(v) and v <= 1000 for v in (n, min, max)):
        raise _Runaway("the template asks lipsum() for over 1,000 paragraphs or words")
    return generate_lorem_ipsum(n, html, min, max)


def _join_parts(eval_ctx, parts: tuple) -> str:
    """The ``~`` operator (jinja2's ``str_join``/``markup_join``), refusing a huge result before building it."""
    from jinja2.runtime import markup_join, str_join

    strings = [p if isinstance(p, str) else str(p) for p in parts]
    _check_size(sum(map(len, strings)), "the template joins values with ~ into one")
    return markup_join(parts) if eval_ctx.autoescape else str_join(strings)


@functools.lru_cache(maxsize=1)
def environment():
    """transformers' chat-template environment with the bounds above (one per process: it holds no state
    between renders)."""
    import jinja2
    import jinja2.ext
    from jinja2.compiler import CodeGenerator
    from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter

    class BoundedCodeGenerator(CodeGenerator):
        def visit_Concat(self, node, frame):
            self.write("environment.join_parts(context.eval_ctx, (")
            for arg in node.nodes:
                self.visit(arg, frame)
                self.write(", ")
            self.write("))")

    class BoundedFormatter(SandboxedFormatter):
        def format_field(self, value, format_spec):
            _check_format_spec(format_spec)
            return super().format_field(value, format_spec)

    class BoundedEnvironment(ImmutableSandboxedEnvironment):
        """Intercepting these operators also keeps jinja2 from folding them at compile time, where
        ``{{ 10**10**10 }}`` would run before any check."""

        intercepted_binops = frozenset(["*", "**", "+", "%"])
        code_generator_class = BoundedCodeGenerator
        join_parts = staticmethod(_join_parts)

        def call_binop(self, context, operator, left, right):
            _check_binop(operator, left, right)
            return super().call_binop(context, operator, left, right)

        def call(self, context, obj, /, *args, **kwargs):
            owner = getattr(obj, "__self__", None)
            if isinstance(obj, types.BuiltinMethodType) and isinstance(owner, (str, bytes)):
                args = _check_str_method(owner, obj.__name__, args, kwargs)
            return super().call(context, obj, *args, **kwargs)

        def wrap_str_format(self, value):
            wrapped = super().wrap_str_format(value)
            if wrapped is None or not isinstance(value.__self__, str) or hasattr(value.__self__, "__html__"):
                return wrapped
            # the same wrapper as jinja2's, with a formatter that checks each field's width first
            source, is_map, vformat = value.__self__, value.__name__ == "format_map", BoundedFormatter(self).vformat

            def bounded(*args, **kwargs):
                if is_map:
                    if kwargs or len(args) != 1:
                        raise TypeError("format_map() takes exactly one argument")
                    args, kwargs = (), args[0]
                return str(vformat(source, args, kwargs))

            return bounded

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def strftime_now(fmt):
        return datetime.now().strftime(fmt)

    env = BoundedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    _bounded_filters(env)
    env.globals.update(raise_exception=raise_exception, strftime_now=strftime_now, lipsum=_lipsum)
    return env


@functools.lru_cache(maxsize=16)
def _compiled(source: str):
    """The compiled template (the chat composer renders the same one at every keystroke)."""
    return environment().from_string(source)


def render_bounded(source: str, context: dict, *, seconds: float = RENDER_SECONDS,
                   max_chars: int = RENDER_CHARS) -> str:
    """Render Jinja ``source`` with ``context`` in the bounded sandbox, in this process.

    Raises TemplateFailure (with the user's message) for a syntax error, ``raise_exception(...)``, any
    other error inside the template, a bound above, more than ``seconds`` of work or more than
    ``max_chars`` characters of output. Does not stop one long C call (the template process does).
    """
    import jinja2

    try:
        template = _compiled(source)
    except jinja2.TemplateSyntaxError as err:
        raise TemplateFailure(user_message("the chat template has a syntax error on line {line}: {detail}",
                                           line=err.lineno, detail=err.message)) from None
    except RecursionError:
        raise TemplateFailure(user_message("the chat template is nested too deeply to compile")) from None
    except Exception as err:  # noqa: BLE001 - jinja2's compiler on hostile source
        raise TemplateFailure(user_message("the chat template cannot be compiled: {detail}",
                                           detail=f"{type(err).__name__}: {_short(err)}")) from None
    deadline = time.monotonic() + seconds

    def trace(frame, event, arg):
        # every call and line while rendering checks the clock, so even a loop that writes nothing stops
        if time.monotonic() > deadline:
            raise _Runaway(user_message("the template ran for over {seconds:g} s (a loop that does not end?)",
                                        seconds=seconds))
        return trace

    previous = sys.gettrace()
    parts: list[str] = []
    size = 0
    sys.settrace(trace)
    try:
        for chunk in template.generate(**context):
            size += len(chunk)
            if size > max_chars:
                raise _Runaway(user_message("the template wrote over {max_chars:,} characters", max_chars=max_chars))
            parts.append(chunk)
    except _Runaway as err:
        raise TemplateFailure(user_message("the chat template was stopped: {why}", why=message_of(err))) from None
    except jinja2.exceptions.TemplateError as err:
        # the template's own words (raise_exception) or jinja2's: shown as they come, after our frame
        raise TemplateFailure(user_message("the chat template raised an error: {detail}", detail=str(err))) from None
    except RecursionError:
        raise TemplateFailure(user_message("the chat template was stopped: it recursed too deeply")) from None
    except MemoryError:
        parts = []
        raise TemplateOutOfMemory(user_message("the chat template was stopped: it ran out of memory")) from None
    except Exception as err:  # noqa: BLE001 - anything else the template's own code does wrong
        raise TemplateFailure(user_message("the chat template failed: {detail}",
                                           detail=f"{type(err).__name__}: {_short(err)}")) from None
    finally:
        sys.settrace(previous)
    return "".join(parts)


def _short(err: Exception) -> str:
    text = str(err)
    return text if len(text) <= 300 else text[:300] + "…"
