"""Django's internals, fenced in: every use of the ORM's compiler, its row populators or
its prefetch cache is here, and nowhere else.

Some reads run on every page a player sees, and the ORM took longer to build their SQL
than the database to answer it: here their SQL is compiled once per process, for a
stand-in id (``RowsById``, ``CountsById``). A game a service has just read under its lock
is handed its seats as a prefetch would hand them (``prefetch_filled``), and a raw
statement embeds a queryset's SQL by named parameters (``sql_named``). A commit's writes,
a row added and a few columns of two rows changed, run SQL made once per process too
(``Inserter``, ``ColumnsSaver``), with the model's signals sent as ``save`` sends them.

Written against Django 5.2 (``WRITTEN_FOR``). On any other Django every helper takes its
plain-ORM path (the same objects, for a query or a few more), and the system check
``limes.E001`` stops ``manage.py`` until someone has read this module against the new
version, run ``tests/games/test_internals.py`` and added it. ``LIMES_ORM_INTERNALS =
False`` takes the plain path on purpose (and quiets the check).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar

import django
from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.db import DatabaseError, connections, router, transaction
from django.db.models import Field, Model, Prefetch, QuerySet, prefetch_related_objects
from django.db.models.query import get_related_populators
from django.db.models.signals import post_save, pre_save
from django.db.models.sql.compiler import SQLCompiler

from core.fences import version_fence

#: The Django versions (major, minor) whose internals this module was read against.
WRITTEN_FOR = frozenset({(5, 2)})

#: A stand-in id for SQL compiled once; no row has a negative id.
STAND_IN_ID = -271828
_ID_SLOT = object()  # where the id goes among the parameters of SQL compiled once

M = TypeVar("M", bound=Model)


def in_use() -> bool:
    """Whether the helpers here use Django's internals (else they take the plain ORM)."""
    return django.VERSION[:2] in WRITTEN_FOR and _wanted()


def _wanted() -> bool:
    return bool(getattr(settings, "LIMES_ORM_INTERNALS", True))


@register(Tags.compatibility)
def check_django_version(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """An error on a Django whose internals this module was not written for."""
    if not _wanted():
        return []
    return version_fence(
        what="floor/internals.py relies on Django's compiler and prefetch internals",
        library="Django",
        installed=django.VERSION[:2],
        shown=django.get_version(),
        written_for=WRITTEN_FOR,
        hint="Read floor/internals.py against this Django, run "
        "tests/games/test_internals.py, then add the version to WRITTEN_FOR; or set "
        "LIMES_ORM_INTERNALS = False to read through the plain ORM.",
        id="limes.E001",
    )


def _id_slotted(sql_params: tuple[str, Sequence[Any]]) -> tuple[str, list[Any]]:
    # SQL compiled for STAND_IN_ID, its parameters with a slot where the id goes. The
    # stand-in must be the only number among them.
    sql, params = sql_params
    assert [p for p in params if not isinstance(p, str)] == [STAND_IN_ID], params
    return sql, [_ID_SLOT if p == STAND_IN_ID else p for p in params]


def _id_filled(params: Sequence[Any], pk: int) -> list[Any]:
    return [pk if p is _ID_SLOT else p for p in params]


@dataclass(frozen=True)
class _RowsPlan(Generic[M]):
    model: type[M]
    sql: str
    params: list[Any]
    db: str
    compiler: SQLCompiler
    converters: dict[int, Any]
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]


class RowsById(Generic[M]):
    """``list(query(pk))`` for any ``pk``, from SQL the ORM compiled once.

    ``query(STAND_IN_ID)`` must have the id as its only number among its parameters. The
    objects are built as Django's ``ModelIterable`` builds them, related objects of
    ``select_related`` included.
    """

    def __init__(self, query: Callable[[int], QuerySet[M]]) -> None:
        self._query = query

    def __call__(self, pk: int) -> list[M]:
        if not in_use():
            return list(self._query(pk))
        plan = self._plan
        with connections[plan.db].cursor() as cursor:
            cursor.execute(plan.sql, _id_filled(plan.params, pk))
            rows = cursor.fetchall()
        if plan.converters:
            rows = list(plan.compiler.apply_converters(rows, plan.converters))
        objects = []
        for row in rows:
            obj = plan.model.from_db(plan.db, plan.init_list, row[plan.start : plan.end])
            for populator in plan.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects

    @cached_property
    def _plan(self) -> _RowsPlan[M]:
        queryset = self._query(STAND_IN_ID)
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = _id_slotted(compiler.as_sql())
        klass_info = compiler.klass_info
        assert klass_info is not None
        select = compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _RowsPlan(
            model=queryset.model,
            sql=sql,
            params=params,
            db=queryset.db,
            compiler=compiler,
            converters=compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
            init_list=[s[0].target.attname for s in select[start:end]],
            start=start,
            end=end,
            # Django 5.2's signature; the stubs already have 6.0's (with fetch_mode).
            populators=get_related_populators(klass_info, select, queryset.db),  # type: ignore[call-arg]
        )


class CountsById:
    """``tuple(q.count() for q in queries(pk))`` for any ``pk``, in one query compiled once.

    Each of ``queries(STAND_IN_ID)`` must have the id as its only number among its
    parameters.
    """

    def __init__(self, queries: Callable[[int], Sequence[QuerySet[Any]]]) -> None:
        self._queries = queries

    def __call__(self, pk: int) -> tuple[int, ...]:
        if not in_use():
            return tuple(queryset.count() for queryset in self._queries(pk))
        db, sql, params = self._sql
        with connections[db].cursor() as cursor:
            cursor.execute(sql, _id_filled(params, pk))
            row = cursor.fetchone()
        assert row is not None
        return tuple(row)

    @cached_property
    def _sql(self) -> tuple[str, str, list[Any]]:
        querysets = self._queries(STAND_IN_ID)
        parts: list[str] = []
        params: list[Any] = []
        for queryset in querysets:
            sql, counted = _id_slotted(queryset.order_by().values("pk").query.sql_with_params())
            parts.append(f"(SELECT COUNT(*) FROM ({sql}) AS counted)")
            params += counted
        return querysets[0].db, "SELECT " + ", ".join(parts), params


def prefetch_filled(instance: Model, lookup: Prefetch[Any, Any, Any], objects: list[Any]) -> None:
    """Give ``instance`` ``objects`` as what ``prefetch_related_objects([instance], lookup)``
    would read, without reading them: rows a service has just read under its lock.

    ``instance`` must not have ``lookup`` prefetched already.
    """
    if not in_use():
        prefetch_related_objects([instance], lookup)
        return
    # Filled as prefetch_related fills it: Django has no public way to hand it rows.
    name = lookup.prefetch_to
    loaded = getattr(instance, name).all()
    loaded._result_cache = list(objects)
    loaded._prefetch_done = True
    instance._prefetched_objects_cache = {name: loaded}  # type: ignore[attr-defined]


def sql_named(queryset: QuerySet[Any], prefix: str) -> tuple[str, dict[str, Any]]:
    """The SQL of ``queryset``, to embed in a raw statement, with its parameters named
    ``<prefix>_0``, ``<prefix>_1``… (``%(name)s``). Only when ``in_use()``: a caller
    otherwise takes its plain-ORM path."""
    sql, params = queryset.query.sql_with_params()
    names = iter(f"{prefix}_{i}" for i in range(len(params)))
    # A literal percent sign is doubled in the compiled SQL; every "%s" is a parameter.
    pieces = [piece.split("%s") for piece in sql.split("%%")]
    named = "%%".join(
        "".join(part if i == 0 else f"%({next(names)})s{part}" for i, part in enumerate(piece))
        for piece in pieces
    )
    return named, {f"{prefix}_{i}": value for i, value in enumerate(params)}


class ColumnsSaver(Generic[M]):
    """``instance.save(update_fields=fields)`` for any saved ``model`` object, from one
    ``UPDATE`` made once: the same columns written (``auto_now`` ones stamped), the same
    ``pre_save`` and ``post_save`` signals, the same error if no row was changed."""

    def __init__(self, model: type[M], fields: Sequence[str]) -> None:
        self._model = model
        self._names = tuple(fields)
        self._update_fields = frozenset(fields)

    def __call__(self, instance: M) -> None:
        if not in_use():
            instance.save(update_fields=self._names)
            return
        model, changed = self._model, self._update_fields
        sql, fields = self._sql
        if type(instance) is not model or instance.pk is None:
            instance.save(update_fields=self._names)  # a proxy, a subclass, no row: the ORM's
            return
        if any(hasattr(getattr(instance, f.attname), "resolve_expression") for f in fields):
            instance.save(update_fields=self._names)  # an F() or the like: the ORM's work
            return
        # As save: a related object not saved yet is an error, not a NULL written.
        instance._prepare_related_fields_for_save(operation_name="save", fields=fields)  # type: ignore[attr-defined]
        using = router.db_for_write(model, instance=instance)
        pre_save.send(
            sender=model, instance=instance, raw=False, using=using, update_fields=changed
        )
        connection = connections[using]
        params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
        params.append(instance.pk)
        with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
            cursor.execute(sql, params)
            if cursor.rowcount != 1:
                raise DatabaseError("Save with update_fields did not affect any rows.")
        instance._state.db = using
        instance._state.adding = False
        post_save.send(
            sender=model,
            instance=instance,
            created=False,
            update_fields=changed,
            raw=False,
            using=using,
        )

    @cached_property
    def _sql(self) -> tuple[str, list[Field[Any, Any]]]:
        meta = self._model._meta
        fields = [meta.get_field(name) for name in self._names]
        assert all(isinstance(f, Field) and f.concrete and not f.primary_key for f in fields)
        concrete = [f for f in fields if isinstance(f, Field)]
        # Django writes a placeholder of a field's own where it has one: none of these do.
        assert not any(hasattr(f, "get_placeholder") for f in concrete), self._names
        quote = connections[router.db_for_write(self._model)].ops.quote_name
        table = quote(meta.db_table)
        assigned = ", ".join(f"{quote(str(f.column))} = %s" for f in concrete)
        assert meta.pk is not None
        pk = quote(str(meta.pk.column))
        return f"UPDATE {table} SET {assigned} WHERE {table}.{pk} = %s", concrete


_savers: dict[tuple[type[Model], tuple[str, ...]], ColumnsSaver[Any]] = {}


def columns_saver(model: type[M], fields: Sequence[str]) -> ColumnsSaver[M]:
    """The ``ColumnsSaver`` of ``model`` for ``fields``, made at its first use and kept for
    the process: the callers whose columns vary from call to call share one per set."""
    key = (model, tuple(fields))
    saver = _savers.get(key)
    if saver is None:
        saver = _savers[key] = ColumnsSaver(model, key[1])
    return saver


class Inserter(Generic[M]):
    """``model.objects.create(**values)`` from one ``INSERT … RETURNING`` made once: every
    column written as ``save`` writes a new row (defaults and ``auto_now_add`` included),
    the same ``pre_save`` and ``post_save`` signals, the new id set on the object."""

    def __init__(self, model: type[M]) -> None:
        self._model = model

    def __call__(self, **values: Any) -> M:
        model = self._model
        pk_names = {"pk", model._meta.pk.name if model._meta.pk else "pk"}
        if not in_use() or pk_names & values.keys():
            # An id given is the caller's to keep: the ORM writes it (the INSERT here lets
            # the database choose).
            return model._default_manager.create(**values)
        instance = model(**values)
        # As save: a related object not saved yet is an error, not a NULL written.
        instance._prepare_related_fields_for_save(operation_name="save")  # type: ignore[attr-defined]
        sql, fields, returned = self._sql
        using = router.db_for_write(model, instance=instance)
        pre_save.send(sender=model, instance=instance, raw=False, using=using, update_fields=None)
        connection = connections[using]
        params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
        with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        assert row is not None
        for value, field in zip(row, returned, strict=True):
            for converter in field.get_db_converters(connection):
                value = converter(value, field, connection)
            setattr(instance, field.attname, value)
        instance._state.db = using
        instance._state.adding = False
        post_save.send(
            sender=model,
            instance=instance,
            created=True,
            update_fields=None,
            raw=False,
            using=using,
        )
        return instance

    @cached_property
    def _sql(self) -> tuple[str, list[Field[Any, Any]], list[Field[Any, Any]]]:
        meta = self._model._meta
        # As Model._save_table: every local column but the id the database gives.
        fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field]
        assert meta.auto_field is not None and not meta.parents
        assert not any(hasattr(f, "get_placeholder") for f in fields)
        assert not any(f.db_returning and f is not meta.auto_field for f in fields)
        connection = connections[router.db_for_write(self._model)]
        assert connection.features.can_return_columns_from_insert
        quote = connection.ops.quote_name
        table = quote(meta.db_table)
        returned: list[Field[Any, Any]] = [meta.auto_field]
        columns = ", ".join(quote(str(f.column)) for f in fields)
        slots = ", ".join("%s" for _ in fields)
        back = ", ".join(f"{table}.{quote(str(f.column))}" for f in returned)
        sql = f"INSERT INTO {table} ({columns}) VALUES ({slots}) RETURNING {back}"
        return sql, fields, returned
