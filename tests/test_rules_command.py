"""evlogic rules: the bundled rule sets and their numbers, as loaded."""

from __future__ import annotations

import yaml

from evlogic.loading.rulesets import bundled_rule_sets, load_rule_set


def test_json_lists_every_bundled_rule_set_as_its_loader_reads_it(cli):
    result = cli("rules", "--format", "json")
    assert result.code == 0 and result.err == ""
    listed = result.json()
    assert [entry["name"] for entry in listed] == list(bundled_rule_sets())
    for entry in listed:
        loaded = load_rule_set(entry["name"])
        assert tuple((int(size), bonus) for size, bonus in entry["tiers"].items()) == loaded.tiers
        assert entry["siege_penalty"] == loaded.siege_penalty
        assert entry["links_needed"] == loaded.links_needed
        assert entry["swing_multiplier"] == loaded.swing_multiplier
        assert entry["home_swing"] == loaded.home_swing
        assert entry["region"] == loaded.region
        assert entry["game_end"] == loaded.game_end


def test_each_entry_written_as_a_rule_set_file_is_that_rule_set(cli, tmp_path):
    """The JSON's keys are a rule set file's: written back, it loads to the same numbers."""
    for entry in cli("rules", "--format", "json").json():
        document = {key: value for key, value in entry.items() if value is not None}
        document["tiers"] = {int(size): bonus for size, bonus in entry["tiers"].items()}
        if not document["programs"]:
            del document["programs"]
        path = tmp_path / f"{entry['name']}.yaml"
        path.write_text(yaml.safe_dump(document))
        written, bundled = load_rule_set(path), load_rule_set(entry["name"])
        fields = ("tiers", "siege_penalty", "links_needed", "swing_multiplier", "home_swing")
        for field in (*fields, "region", "game_end"):
            assert getattr(written, field) == getattr(bundled, field), (entry["name"], field)


def test_the_text_has_a_row_a_rule_set(cli):
    result = cli("rules")
    assert result.code == 0
    rows = result.out.splitlines()[1:]
    assert [row.split()[0] for row in rows] == list(bundled_rule_sets())
