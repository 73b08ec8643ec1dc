"""Reading verl console logs and file-logger JSONL: formats, damage, restarts, folders."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import ModuleType

import pytest

from tools.timing import parse as timing_parse

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "timing"


@pytest.fixture(scope="module")
def tp() -> ModuleType:
    return timing_parse


def _line(step: int, metrics: dict[str, object]) -> str:
    return " - ".join([f"step:{step}", *(f"{k}:{v}" for k, v in metrics.items())])


def test_ray_prefixed_ansi_line_with_numpy_reprs(tp):
    line = (
        "\x1b[36m(TaskRunner pid=12, ip=10.0.0.3)\x1b[0m step:7 - timing_s/gen:np.float64(0.12) - "
        "training/global_step:7 - critic/score/mean:nan - ok:True - n:np.int64(5) - lr:1e-05 - neg:-0.25\n"
    )
    step, metrics = tp.parse_console_line(line)
    assert step == 7
    # NaN is treated as missing; bools become 0/1; np.* reprs unwrap.
    assert metrics == {
        "timing_s/gen": 0.12,
        "training/global_step": 7.0,
        "ok": 1.0,
        "n": 5.0,
        "lr": 1e-05,
        "neg": -0.25,
    }


@pytest.mark.parametrize(
    "line",
    [
        "(TaskRunner pid=1) Total training steps: 234\n",
        "(TaskRunner pid=1) Training Progress:   1%|▏  | 3/234 [20:53<26:48:12, 417.72s/it]\n",
        "training/global_step:3 - x:1\n",
        "Creating file logger at /x/metrics.jsonl\n",
    ],
)
def test_other_lines_are_not_metrics(tp, line):
    assert tp.parse_console_line(line) is None


def test_damaged_metrics_line_raises(tp):
    with pytest.raises(tp.DamagedLine, match="timing_s/gen"):
        tp.parse_console_line("step:3 - timing_s/step:10.5 - timing_s/gen:38.2x\n")
    with pytest.raises(tp.DamagedLine, match="key:value"):
        tp.parse_console_line("step:3 - timing_s/step:10.5 - garbage\n")


def test_real_verl_loggers_console_and_jsonl_agree(tp, tmp_path, monkeypatch, capsys):
    """verl's own LocalLogger and FileLogger write the two formats; both parse to the same records."""
    import numpy as np
    from verl.utils.logger import LocalLogger
    from verl.utils.tracking import FileLogger

    jsonl = tmp_path / "run" / "metrics.jsonl"
    jsonl.parent.mkdir()
    monkeypatch.setenv("VERL_FILE_LOGGER_PATH", str(jsonl))
    file_logger = FileLogger("proj", "exp")
    console = LocalLogger(print_to_console=True)
    capsys.readouterr()
    steps = {
        1: {
            "timing_s/gen": np.float64(30.5),
            "timing_s/step": 41.25,
            "perf/throughput": np.float64(812.5),
            "x/nan": float("nan"),
        },
        2: {
            "timing_s/gen": np.float64(29.0),
            "timing_s/step": 40.0,
            "training/global_step": np.int64(2),
            "flag": True,
        },
    }
    for step, data in steps.items():
        console.log(data=data, step=step)
        file_logger.log(data=data, step=step)
    file_logger.finish()
    printed = capsys.readouterr().out
    # Ray prefixes every line an actor prints; the console logger runs in the TaskRunner actor.
    log = tmp_path / "console.txt"
    log.write_text("".join(f"(TaskRunner pid=4242) {ln}\n" for ln in printed.splitlines()))
    from_console = tp.load_run(log)
    from_jsonl = tp.load_run(jsonl)
    assert from_console.fmt == "console" and from_jsonl.fmt == "jsonl"
    assert from_console.steps == from_jsonl.steps
    assert from_console.steps[1] == {"timing_s/gen": 30.5, "timing_s/step": 41.25, "perf/throughput": 812.5}
    assert from_console.steps[2]["flag"] == 1.0


def test_truncated_last_line_is_skipped_and_counted(tp, tmp_path):
    full = _line(1, {"timing_s/gen": 3.0, "timing_s/step": 4.0}) + "\n"
    cut = _line(2, {"timing_s/gen": 3.5, "timing_s/step": 4.5})[:-6]  # died mid-write, no newline
    log = tmp_path / "run.out"
    log.write_text(full + cut)
    run = tp.load_run(log)
    assert list(run.steps) == [1]
    assert run.stats.truncated == 1 and run.stats.unparsable == 0

    jl = tmp_path / "m.jsonl"
    rec = json.dumps({"step": 1, "data": {"timing_s/step": 4.0}})
    jl.write_text(rec + "\n" + rec[:-9])
    run = tp.load_run(jl)
    assert list(run.steps) == [1] and run.stats.truncated == 1


def test_unparsable_lines_are_counted_not_fatal(tp, tmp_path):
    log = tmp_path / "run.log"
    log.write_text(
        _line(1, {"timing_s/step": 4.0}) + "\n"
        "step:2 - timing_s/step:4.1 - timing_s/gen:oops\n" + _line(3, {"timing_s/step": 4.2}) + "\n"
    )
    run = tp.load_run(log)
    assert sorted(run.steps) == [1, 3]
    assert run.stats.unparsable == 1
    assert any(f"{log}:2" in e for e in run.stats.examples)

    jl = tmp_path / "m.jsonl"
    jl.write_text(
        '{"step": 1, "data": {"timing_s/step": 4.0}}\nnot json\n{"step": "x", "data": {}}\n[1, 2]\n'
    )
    run = tp.load_run(jl)
    assert list(run.steps) == [1] and run.stats.unparsable == 3


def test_restart_later_step_wins_and_is_reported(tp, tmp_path):
    first = [_line(s, {"timing_s/step": 10.0 + s}) for s in (1, 2, 3)]
    # resumed from the step-1 checkpoint: steps 2 and 3 run again with other times
    second = [_line(s, {"timing_s/step": 20.0 + s}) for s in (2, 3, 4)]
    log = tmp_path / "slurm-1.out"
    log.write_text("\n".join([*first, "(TaskRunner pid=9) Restarting...", *second]) + "\n")
    run = tp.load_run(log)
    assert {s: m["timing_s/step"] for s, m in run.steps.items()} == {1: 11.0, 2: 22.0, 3: 23.0, 4: 24.0}
    assert run.stats.repeated_steps == {2: 2, 3: 2}


def test_separate_records_of_one_step_are_merged(tp, tmp_path):
    log = tmp_path / "run.log"
    log.write_text(_line(5, {"timing_s/step": 9.0}) + "\n" + _line(5, {"val-core/acc": 0.5}) + "\n")
    run = tp.load_run(log)
    assert run.steps[5] == {"timing_s/step": 9.0, "val-core/acc": 0.5}
    assert run.stats.repeated_steps == {}


def test_folder_prefers_jsonl_and_reads_attempts_oldest_first(tp, tmp_path):
    job = tmp_path / "12345"
    (job / "node0").mkdir(parents=True)
    (job / "slurm-12345.out").write_text(_line(1, {"timing_s/step": 99.0}) + "\n")
    a0 = job / "metrics.0.jsonl"
    a1 = job / "node0" / "metrics.1.jsonl"
    a0.write_text(
        "".join(json.dumps({"step": s, "data": {"timing_s/step": float(s)}}) + "\n" for s in (1, 2))
    )
    a1.write_text(json.dumps({"step": 2, "data": {"timing_s/step": 7.0}}) + "\n")
    os.utime(a0, (1_000_000, 1_000_000))
    os.utime(a1, (2_000_000, 2_000_000))
    run = tp.load_run(job)
    assert run.fmt == "jsonl"
    assert run.steps == {1: {"timing_s/step": 1.0}, 2: {"timing_s/step": 7.0}}
    assert run.stats.files == [str(a0), str(a1)]
    assert run.stats.ignored_files == [str(job / "slurm-12345.out")]


def test_folder_falls_back_to_console_logs(tp, tmp_path):
    (tmp_path / "slurm-7.out").write_text("hello\n" + _line(1, {"timing_s/step": 5.0}) + "\n")
    (tmp_path / "ray.err").write_text("nothing here\n")
    run = tp.load_run(tmp_path)
    assert run.fmt == "console" and run.stats.files == [str(tmp_path / "slurm-7.out")]


def test_bad_inputs_name_the_path(tp, tmp_path):
    missing = tmp_path / "nope.log"
    with pytest.raises(tp.TimingInputError, match=str(missing)):
        tp.load_run(missing)
    empty = tmp_path / "empty_job"
    empty.mkdir()
    (empty / "notes.md").write_text("x\n")
    with pytest.raises(tp.TimingInputError, match=rf"{empty}: no verl logs found"):
        tp.load_run(empty)
    plain = tmp_path / "other.log"
    plain.write_text("just some text\n")
    with pytest.raises(tp.TimingInputError, match=rf"{plain}: no verl metrics lines"):
        tp.load_run(plain)


def test_fixture_console_and_jsonl_parse_to_the_same_records(tp):
    console = tp.load_run(FIXTURES / "sglang_step3.console.txt")
    jsonl = tp.load_run(FIXTURES / "sglang_step3.jsonl")
    assert console.steps == jsonl.steps
    assert console.steps[3]["timing_s/step"] == 408.190
    assert console.stats.unparsable == 0 and console.stats.truncated == 0


def test_console_log_starting_with_a_config_dict_is_not_taken_for_jsonl(tp, tmp_path):
    log = tmp_path / "driver"  # no suffix: the format is sniffed
    log.write_text(
        "{'actor_rollout_ref': {'rollout': {'name': 'sglang'}}}\n" + _line(1, {"timing_s/step": 3.0}) + "\n"
    )
    run = tp.load_run(log)
    assert run.fmt == "console" and run.steps == {1: {"timing_s/step": 3.0}}
    jl = tmp_path / "records"
    jl.write_text(json.dumps({"step": 1, "data": {"timing_s/step": 3.0}}) + "\n")
    assert tp.load_run(jl).fmt == "jsonl"


def test_identical_line_seen_twice_is_not_a_restart(tp, tmp_path):
    (tmp_path / "a.out").write_text(_line(1, {"timing_s/step": 3.0}) + "\n")
    (tmp_path / "b.log").write_text(_line(1, {"timing_s/step": 3.0}) + "\n")
    run = tp.load_run(tmp_path)
    assert run.steps == {1: {"timing_s/step": 3.0}} and run.stats.repeated_steps == {}
