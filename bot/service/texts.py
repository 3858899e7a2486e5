"""The service's own player-facing sentences, in English and French (the game's language)."""

from __future__ import annotations

from typing import Any

_TEXTS: dict[str, dict[str, str]] = {
    "no_order": {
        "en": "{unit}: no order (it will hold)",
        "fr": "{unit} : pas d'ordre (elle tiendra)",
    },
    "no_retreat": {
        "en": "{unit}: no retreat order (it will be disbanded)",
        "fr": "{unit} : pas d'ordre de retraite (elle sera dispersée)",
    },
    "not_yours": {
        "en": "{order}: you have no unit in {province}",
        "fr": "{order} : vous n'avez pas d'unité en {province}",
    },
    "several_orders": {
        "en": "{unit} has {n} orders ({orders}): under these rules {then}; send one order per unit",
        "fr": "{unit} a {n} ordres ({orders}) : avec ces règles, {then} ; un seul ordre par unité",
    },
    "several_first": {"en": "the first one counts", "fr": "le premier compte"},
    "several_last": {"en": "the last one counts", "fr": "le dernier compte"},
    "several_hold": {"en": "it will hold", "fr": "elle tiendra"},
    "several_disorder": {
        "en": "it is in civil disorder and will hold",
        "fr": "elle est en désordre civil et tiendra",
    },
    "builds_unused": {
        "en": "{n} build(s) not ordered: they will be waived",
        "fr": "{n} construction(s) non ordonnée(s) : elles seront abandonnées",
    },
    "removals_missing": {
        "en": "{n} removal(s) missing: the rules of civil disorder will choose the unit(s)",
        "fr": "{n} retrait(s) manquant(s) : les règles de désordre civil choisiront",
    },
    "refused_errors": {
        "en": "Not saved: fix the errors and send the whole set again. {previous}",
        "fr": "Non enregistré : corrigez les erreurs et renvoyez tous vos ordres. {previous}",
    },
    "refused_strict": {
        "en": "Refused by the {rules} rules (a whole set with an extra or inaccurate order is "
        "refused): fix it and send the whole set again. {previous}",
        "fr": "Refusé par les règles {rules} (un ensemble avec un ordre en trop ou inexact est "
        "refusé) : corrigez et renvoyez tous vos ordres. {previous}",
    },
    "previous_stand": {
        "en": "Your previous orders still stand.",
        "fr": "Vos ordres précédents restent valables.",
    },
    "previous_none": {
        "en": "You have no orders yet.",
        "fr": "Vous n'avez encore aucun ordre.",
    },
    "saved": {
        "en": "Saved: {n} order(s) for {phase}.",
        "fr": "Enregistré : {n} ordre(s) pour {phase}.",
    },
    "cleared": {
        "en": "Your orders for {phase} are cleared.",
        "fr": "Vos ordres pour {phase} sont effacés.",
    },
    "late": {
        "en": "Too late: the deadline for {phase} has passed; these orders were not taken.",
        "fr": "Trop tard : l'heure limite de {phase} est passée ; ces ordres ne sont pas pris.",
    },
    "not_open": {
        "en": "Orders for {phase} are not open yet (they open when the reading ends).",
        "fr": "Les ordres pour {phase} ne sont pas encore ouverts (après la lecture).",
    },
}


def t(key: str, lang: str, **kw: Any) -> str:
    forms = _TEXTS[key]
    return forms.get(lang, forms["en"]).format(**kw)
