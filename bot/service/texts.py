"""The service's own player-facing sentences, in English and French (the game's language)."""

from __future__ import annotations

from typing import Any

from bot.core.messages import catalogue
from bot.core.model import Power

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
    "foreign_unit": {
        "en": "{order}: {unit} is {owner}; you can only order your own units",
        "fr": "{order} : {unit} est {owner} ; vous ne pouvez donner d'ordres qu'à vos unités",
    },
    "too_many_orders": {
        "en": "Not saved: at most {max} orders in one message (this one has {n}); "
        "your previous orders are unchanged.",
        "fr": "Non enregistré : {max} ordres au plus par message (celui-ci en a {n}) ; "
        "vos ordres précédents sont inchangés.",
    },
    "orders_too_long": {
        "en": "Not saved: at most {max} characters in one message (this one has {n}); "
        "your previous orders are unchanged.",
        "fr": "Non enregistré : {max} caractères au plus par message (celui-ci en a {n}) ; "
        "vos ordres précédents sont inchangés.",
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
    "build_coast": {
        "en": "{name} has two coasts: write {ways}",
        "fr": "{name} a deux côtes : écrivez {ways}",
    },
    "build_coasts": {
        "en": "{name} has {n} coasts: write {ways}",
        "fr": "{name} a {n} côtes : écrivez {ways}",
    },
    "or": {"en": " or ", "fr": " ou "},
    # --- clock settings given at game creation (bot/service/clock.py) ---
    "not_duration": {"en": "not a duration: {value!r}", "fr": "durée illisible : {value!r}"},
    "not_duration_hint": {
        "en": "not a duration: {value!r} (write e.g. 8m, 90s, 48h)",
        "fr": "durée illisible : {value!r} (écrivez par exemple 8m, 90s, 48h)",
    },
    "negative_duration": {
        "en": "negative duration: {value!r}",
        "fr": "durée négative : {value!r}",
    },
    "empty_duration": {"en": "empty duration", "fr": "durée vide"},
    "unknown_clock_setting": {
        "en": "unknown clock setting {setting!r}",
        "fr": "réglage d'horloge inconnu : {setting!r}",
    },
    "bad_clock_name": {
        "en": "bad clock preset name {name!r}",
        "fr": "nom d'horloge invalide : {name!r}",
    },
    "clock_not_found": {
        "en": "clock preset {name!r} not found ({path}); known: {known}",
        "fr": "horloge {name!r} introuvable ({path}) ; connues : {known}",
    },
    # --- errors (bot/service/errors.py `XError.of`) ---
    "unknown_power": {"en": "unknown power {value!r}", "fr": "puissance inconnue : {value!r}"},
    "unknown_lang": {
        "en": "unknown nomenclature {value!r}: choose en or fr",
        "fr": "nomenclature inconnue {value!r} : choisissez en ou fr",
    },
    "no_game": {"en": "no game #{game}", "fr": "pas de partie n°{game}"},
    "game_unreadable": {
        "en": "game #{game} cannot be read: {why}",
        "fr": "la partie n°{game} est illisible : {why}",
    },
    "store_unavailable": {
        "en": "The bot cannot save right now (a storage problem on its server): what you just "
        "sent was NOT saved. Try again later; the operator has been told.",
        "fr": "Le bot ne peut rien enregistrer pour le moment (problème de stockage sur son "
        "serveur) : ce que vous venez d'envoyer n'a PAS été enregistré. Réessayez plus tard ; "
        "l'administrateur est prévenu.",
    },
    "not_player": {
        "en": "you do not play in game #{game}",
        "fr": "vous ne jouez pas dans la partie n°{game}",
    },
    "gm_only": {
        "en": "only the GM of game #{game} can do that",
        "fr": "seul le MJ de la partie n°{game} peut faire cela",
    },
    "game_over": {"en": "game #{game} is over", "fr": "la partie n°{game} est terminée"},
    "game_already_over": {
        "en": "game #{game} is already over",
        "fr": "la partie n°{game} est déjà terminée",
    },
    "not_started": {
        "en": "game #{game} has not started",
        "fr": "la partie n°{game} n'a pas commencé",
    },
    "already_started": {
        "en": "game #{game} has already started",
        "fr": "la partie n°{game} a déjà commencé",
    },
    "already_play": {
        "en": "you already play {power} in game #{game}",
        "fr": "vous jouez déjà {power} dans la partie n°{game}",
    },
    "join_started": {
        "en": "game #{game} has already started: only its GM can give you a power",
        "fr": "la partie n°{game} a déjà commencé : seul son MJ peut vous confier une puissance",
    },
    "meta_denied": {
        "en": "only the GM of game #{game} can change that",
        "fr": "seul le MJ de la partie n°{game} peut modifier cela",
    },
    "players_only": {
        "en": "only the GM and the players of game #{game} can do that",
        "fr": "seuls le MJ et les joueurs de la partie n°{game} peuvent faire cela",
    },
    "all_taken": {
        "en": "every power of game #{game} is taken",
        "fr": "toutes les puissances de la partie n°{game} sont prises",
    },
    "power_taken": {
        "en": "{power} is already taken in game #{game}",
        "fr": "{power} est déjà prise dans la partie n°{game}",
    },
    "power_not_in_variant": {
        "en": "{power} does not play in this variant",
        "fr": "{power} ne joue pas dans cette variante",
    },
    "played_by_other": {
        "en": "{power} is played by someone else; use replace_player to swap",
        "fr": "{power} est jouée par quelqu'un d'autre ; le MJ peut remplacer le joueur",
    },
    "user_plays": {
        "en": "that user already plays {power}",
        "fr": "ce joueur joue déjà {power}",
    },
    "no_phase_open": {
        "en": "game #{game} has no phase open",
        "fr": "la partie n°{game} n'a pas de phase ouverte",
    },
    "no_phase": {"en": "game #{game} has no phase", "fr": "la partie n°{game} n'a pas de phase"},
    "unknown_vote": {
        "en": "unknown vote {kind!r}: draw or concede",
        "fr": "vote inconnu {kind!r} : draw (nulle) ou concede (abandon)",
    },
    "unknown_ballot": {
        "en": "unknown ballot {ballot!r}: yes, no or abstain",
        "fr": "bulletin inconnu {ballot!r} : yes (oui), no (non) ou abstain (abstention)",
    },
    "not_running_is": {
        "en": "game #{game} is not running (it is {status})",
        "fr": "la partie n°{game} n'est pas en cours (état : {status})",
    },
    "not_running": {
        "en": "game #{game} is not running",
        "fr": "la partie n°{game} n'est pas en cours",
    },
    "not_paused": {
        "en": "game #{game} is not paused",
        "fr": "la partie n°{game} n'est pas en pause",
    },
    "no_window": {
        "en": "game #{game} has no window to extend",
        "fr": "la partie n°{game} n'a pas de fenêtre à prolonger",
    },
    "no_rollback": {
        "en": "game #{game} has no phase to roll back",
        "fr": "la partie n°{game} n'a pas de phase à annuler",
    },
    "adjudicating": {
        "en": "the phase is being adjudicated; try again",
        "fr": "la phase est en cours d'arbitrage ; réessayez",
    },
    "nothing_adjudicated": {
        "en": "game #{game} has no adjudicated phase yet",
        "fr": "la partie n°{game} n'a encore aucune phase arbitrée",
    },
    "not_open": {
        "en": "Orders for {phase} are not open yet (they open when the reading ends).",
        "fr": "Les ordres pour {phase} ne sont pas encore ouverts (après la lecture).",
    },
}


def _local(value: Any, lang: str) -> Any:
    """A power by its name in French (`Angleterre`); English texts keep what they showed."""
    if isinstance(value, Power) and lang == "fr":
        # A power of another variant than the classical seven keeps its id's spelling.
        return catalogue("fr").get(f"power.{value.value}", value.value.title())
    return value


def t(key: str, lang: str, **kw: Any) -> str:
    forms = _TEXTS[key]
    lang = "fr" if lang.lower().startswith("fr") else "en"
    return forms.get(lang, forms["en"]).format(**{k: _local(v, lang) for k, v in kw.items()})


def keys() -> tuple[str, ...]:
    return tuple(_TEXTS)


def forms(key: str) -> dict[str, str]:
    return dict(_TEXTS[key])
