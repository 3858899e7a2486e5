"""`parley adjudicate` as issue 3 specifies it, run in-process through the CLI's main()."""

from __future__ import annotations

import gzip
import io
import json

import pytest

from bot.cli import main
from tests.shared import CORPUS


def run(capsys, monkeypatch, doc, *args):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["adjudicate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def spring(units, orders, centers=None, phase="S1901M"):
    return {
        "position": {"phase": phase, "units": units, "centers": centers or {}},
        "orders": orders,
    }


def result_for(out_doc, order):
    return next(r for r in out_doc["results"] if r["order"] == order)


def test_a_bounce_and_the_next_position(capsys, monkeypatch):
    doc = spring(
        {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
        {"france": ["A PAR - BUR"], "Germany": ["A MUN - BUR"]},
        {"FRANCE": ["PAR"], "GERMANY": ["MUN"]},
    )
    code, out, err = run(capsys, monkeypatch, doc)
    assert code == 0, err
    res = json.loads(out)
    assert result_for(res, "A PAR - BUR") == {
        "power": "FRANCE",
        "order": "A PAR - BUR",
        "outcome": "fails",
        "reason": "bounced",
    }
    assert res["dislodged"] == []
    assert res["position"]["phase"] == "F1901M"  # no retreat: S1901R is skipped
    assert res["position"]["units"] == {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}


def test_orders_are_canonical_in_the_output(capsys, monkeypatch):
    doc = spring(
        {"FRANCE": ["A PAR", "A MAR"]}, {"FRANCE": ["par - bur", "A Marseilles S A PAR - bur"]}
    )
    code, out, _ = run(capsys, monkeypatch, doc)
    assert code == 0
    orders = [r["order"] for r in json.loads(out)["results"]]
    assert orders == ["A PAR - BUR", "A MAR S A PAR - BUR"]


def test_order_for_a_foreign_unit_is_an_illegal_result_not_an_error(capsys, monkeypatch):
    # DATC 6.A.6: Germany orders England's fleet; the order is illegal, the fleet holds.
    doc = spring({"ENGLAND": ["F LON"], "GERMANY": ["A BER"]}, {"GERMANY": ["F LON - NTH"]})
    code, out, _ = run(capsys, monkeypatch, doc)
    assert code == 0
    res = json.loads(out)
    r = result_for(res, "F LON - NTH")
    assert (r["power"], r["outcome"], r["reason"]) == ("GERMANY", "fails", "illegal")
    assert "ENGLAND" in json.dumps(res["position"]["units"])
    assert res["position"]["units"]["ENGLAND"] == ["F LON"]


def test_order_for_a_missing_unit_is_illegal(capsys, monkeypatch):
    doc = spring({"FRANCE": ["A PAR"]}, {"FRANCE": ["A BUR - MUN"]})
    code, out, _ = run(capsys, monkeypatch, doc)
    assert code == 0
    assert result_for(json.loads(out), "A BUR - MUN")["reason"] == "illegal"


def test_text_the_parser_cannot_read_is_reported_in_results(capsys, monkeypatch):
    doc = spring({"FRANCE": ["A PAR"]}, {"FRANCE": ["A PAR - ATLANTIS"]})
    code, out, _ = run(capsys, monkeypatch, doc)
    assert code == 0
    r = json.loads(out)["results"][-1]
    assert (r["order"], r["outcome"], r["reason"]) == ("A PAR - ATLANTIS", "fails", "illegal")
    assert r["detail"].startswith("not understood")


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"orders": {}}', 'missing "position"'),
        (json.dumps(spring({"ELBONIA": ["A PAR"]}, {})), "unknown power"),
        (json.dumps(spring({"FRANCE": ["A PAR"]}, {"ELBONIA": []})), "unknown power 'ELBONIA'"),
        (json.dumps(spring({"FRANCE": ["A XYZ"]}, {})), "unknown province"),
        (json.dumps(spring({"FRANCE": ["F PAR"]}, {})), "cannot stand"),
        (json.dumps(spring({"FRANCE": ["A PAR"]}, {"FRANCE": "A PAR H"})), "list of order strings"),
        (json.dumps({"position": {"phase": "X1901M"}, "orders": {}}), "position.phase"),
    ],
)
def test_malformed_documents_exit_2_with_a_message(capsys, monkeypatch, doc, message):
    code, out, err = run(capsys, monkeypatch, doc)
    assert code == 2
    assert out == ""
    assert err.startswith("parley adjudicate: ")
    assert message in err
    assert "Traceback" not in err


def test_unknown_preset_exits_2(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, spring({}, {}), "--rules", "nope")
    assert code == 2
    assert "nope" in err


def test_jsonl_one_line_per_document_bad_lines_give_errors(capsys, monkeypatch):
    good = json.dumps(spring({"FRANCE": ["A PAR"]}, {"FRANCE": ["A PAR - BUR"]}))
    bad = json.dumps(spring({"FRANCE": ["A PAR"]}, {"ELBONIA": []}))
    text = "\n".join([good, "{oops", bad, "", good]) + "\n"
    code, out, _ = run(capsys, monkeypatch, text, "--jsonl")
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 5
    assert lines[0]["position"]["units"] == {"FRANCE": ["A BUR"]}
    assert "not valid JSON" in lines[1]["error"]
    assert "ELBONIA" in lines[2]["error"]
    assert "error" in lines[3]
    assert lines[4] == lines[0]


def test_file_argument(tmp_path, capsys):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(spring({"ITALY": ["A VEN"]}, {"ITALY": ["A VEN - TRI"]})))
    code = main(["adjudicate", str(path)])
    out, _ = capsys.readouterr()
    assert code == 0
    assert json.loads(out)["position"]["units"] == {"ITALY": ["A TRI"]}


def test_missing_file_exits_2(capsys):
    code = main(["adjudicate", "/nonexistent/in.json"])
    assert code == 2
    assert "cannot read" in capsys.readouterr().err


def test_dislodged_unit_attacker_and_coasted_fleet_retreats(capsys, monkeypatch):
    # F MAO is dislodged from BRE; it may retreat to both coasts of Spain.
    doc = spring(
        {"FRANCE": ["F BRE", "F GAS"], "ENGLAND": ["F MAO"]},
        {"FRANCE": ["F BRE - MAO", "F GAS S F BRE - MAO"], "ENGLAND": ["F MAO H"]},
    )
    code, out, _ = run(capsys, monkeypatch, doc)
    assert code == 0
    res = json.loads(out)
    assert res["dislodged"] == [
        {
            "power": "ENGLAND",
            "unit": "F MAO",
            "attacker_from": "BRE",
            "retreats": ["ENG", "IRI", "NAF", "NAO", "POR", "SPA/NC", "SPA/SC", "WES"],
        }
    ]
    assert res["position"]["phase"] == "S1901R"
    assert res["position"]["dislodged"][0]["unit"] == "F MAO"


def test_retreat_phase_input_and_skip_to_fall(capsys, monkeypatch):
    doc = {
        "position": {
            "phase": "S1901R",
            "units": {"FRANCE": ["F MAO"]},
            "centers": {},
            "dislodged": [
                {"power": "ENGLAND", "unit": "F NAO", "attacker_from": "MAO", "retreats": ["IRI"]}
            ],
        },
        "orders": {"ENGLAND": ["F NAO R IRI"]},
    }
    code, out, _ = run(capsys, monkeypatch, doc)
    assert code == 0
    res = json.loads(out)
    assert result_for(res, "F NAO R IRI")["outcome"] == "succeeds"
    assert res["position"]["phase"] == "F1901M"
    assert res["position"]["units"]["ENGLAND"] == ["F IRI"]


def test_rules_change_the_ruling_world_masters_last_order_wins(capsys, monkeypatch):
    # gm-order-correction-rules I(5): "the last order ... will be used"; DATC 4.D.3 c: holds.
    doc = spring({"FRANCE": ["A PAR"]}, {"FRANCE": ["A PAR - BUR", "A PAR - PIC"]})
    _, out, _ = run(capsys, monkeypatch, doc, "--rules", "world-masters")
    assert json.loads(out)["position"]["units"] == {"FRANCE": ["A PIC"]}
    _, out, _ = run(capsys, monkeypatch, doc)
    assert json.loads(out)["position"]["units"] == {"FRANCE": ["A PAR"]}


def test_civil_disorder_removal_is_an_implied_result(capsys, monkeypatch):
    # DATC 6.J.11 under the default 2023 rule: the army in Tuscany is removed.
    doc = {
        "position": {
            "phase": "W1901A",
            "units": {"ITALY": ["A TUS", "A WAR"]},
            "centers": {"ITALY": ["WAR"]},
        },
        "orders": {},
    }
    _, out, _ = run(capsys, monkeypatch, doc)
    res = json.loads(out)
    assert res["position"]["units"] == {"ITALY": ["A WAR"]}
    implied = [r for r in res["results"] if r.get("implied")]
    assert [(r["order"], r["reason"]) for r in implied] == [("A TUS D", "civil disorder")]
    _, out, _ = run(capsys, monkeypatch, doc, "--rules", "world-masters")
    assert json.loads(out)["position"]["units"] == {"ITALY": ["A TUS"]}  # III(4): from home


def test_first_corpus_records_replay_as_recorded(capsys, monkeypatch):
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        records = [next(fh) for _ in range(30)]
    code, out, _ = run(capsys, monkeypatch, "".join(records), "--jsonl")
    assert code == 0
    outs = [json.loads(x) for x in out.splitlines()]
    assert len(outs) == 30
    for line, got in zip(records, outs, strict=True):
        rec = json.loads(line)
        exp = rec["expected"]["position"]
        assert got["position"]["phase"] == exp["phase"], (rec["game"], rec["i"])
        assert got["position"]["units"] == exp["units"], (rec["game"], rec["i"])
        assert got["position"]["centers"] == exp["centers"], (rec["game"], rec["i"])
