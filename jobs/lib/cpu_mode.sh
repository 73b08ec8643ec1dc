# shellcheck shell=bash
# CPU mode of the launcher, sourced by launch.sh: with PLATFORM=cpu in the site file the job
# starts Ray and verl's real trainer exactly as on a GPU cluster, but on the host CPU:
#   - the engine env is the CPU build (make env-cpu: torch + vLLM's CPU build + verl);
#     the site file points ENV_PREFIX_VLLM at it;
#   - each GPU the allocation declares (Slurm gres, Ray --num-gpus) stands for one training
#     process and one vLLM replica; nothing touches a real GPU;
#   - verl runs on its "cpu" platform (tools/cpu_train/platform.py), loaded by verl itself
#     through VERL_USE_EXTERNAL_MODULES in every process: exported before Ray starts so that
#     raylets, their workers and vLLM's engine processes all inherit it;
#   - the CPU-only overrides are appended after the launcher's own and before the user's
#     (a user override of the same key wins).
# Settings (site file or environment): PLATFORM (gpu | cpu; default gpu), CPU_KVCACHE_GIB
# (vLLM's KV cache per replica on CPU, default 1), CPU_THREADS (torch threads per process,
# default 1), CPU_VLLM_EXECUTOR (auto | uni | mp; default auto: uni when a vLLM replica has one
# declared GPU, so its model runs inside vLLM's engine-core process; mp, one worker process per
# GPU of the replica, when the rollout's tensor_model_parallel_size is above 1).
# Docs: README.md ("What is real on CPU"), docs/cpu_training.md.

cpu_mode() { [[ "${PLATFORM:-gpu}" == cpu ]]; }

# the override that runs a replica's model in vLLM's engine-core process (cpu_mode_overrides)
CPU_UNI_EXECUTOR_OVERRIDE="+actor_rollout_ref.rollout.engine_kwargs.vllm.distributed_executor_backend=uni"

cpu_mode_check() {
  case "${PLATFORM:-gpu}" in
    gpu | cpu) ;;
    *) die "PLATFORM='${PLATFORM}' in ${SITE_FILE}: use gpu (the default) or cpu" ;;
  esac
  cpu_mode || return 0
  case "${CPU_VLLM_EXECUTOR:=auto}" in
    auto | uni | mp) ;;
    *) die "CPU_VLLM_EXECUTOR='${CPU_VLLM_EXECUTOR}' in ${SITE_FILE}: use auto (the default), uni or mp" ;;
  esac
  if [[ "${ENGINE}" != vllm ]] && ! ((DRY_RUN)); then
    die "PLATFORM=cpu trains with vLLM's CPU build only; ${ENGINE} has no CPU build." \
      "Fix: run the vLLM job (jobs/*_vllm.sh), or DRY_RUN=1 for everything but training"
  fi
  return 0
}

cpu_mode_env() {
  cpu_mode || return 0
  export VERL_PLATFORM=cpu
  export VERL_USE_EXTERNAL_MODULES="tools.cpu_train.platform${VERL_USE_EXTERNAL_MODULES:+,${VERL_USE_EXTERNAL_MODULES}}"
  # verl registers its FSDP engines for cuda/npu only (verl/workers/engine/fsdp/
  # transformer_impl.py:1143); verl's own override picks the registry key
  export VERL_ENGINE_DEVICE=cuda
  # vLLM's CPU backend: KV cache size in GiB (else it reserves gpu_memory_utilization x RAM)
  export VLLM_CPU_KVCACHE_SPACE="${CPU_KVCACHE_GIB:-1}"
  export OMP_NUM_THREADS="${CPU_THREADS:-1}" MKL_NUM_THREADS="${CPU_THREADS:-1}"
  # vLLM's CPU worker pins its OpenMP threads ("auto": vllm/utils/ompmultiprocessing.py:123) to
  # the same first core in every replica, since each emulated node sees the whole host: two
  # replicas then share core 0 while the others idle. Let the OS place them.
  export VLLM_CPU_OMP_THREADS_BIND="${VLLM_CPU_OMP_THREADS_BIND:-nobind}"
  if [[ "${CPU_VLLM_EXECUTOR}" != mp ]]; then
    # vLLM's CPU platform turns the "uni" executor into "mp" unless this is 0
    # (vllm/platforms/cpu.py:144); verl's AsyncLLM keeps its engine-core process either way
    # (vllm/v1/engine/async_llm.py:146), so 0 only drops the per-replica worker process
    export VLLM_ENABLE_V1_MULTIPROCESSING=0
  fi
  # Ray's CPU count is a scheduling budget here, not a pinning: verl's workers ask for several
  # CPUs per declared GPU (a {GPU: 1, CPU: 3} bundle), while emulated nodes share the host's few
  # cores, so ray_node.sh's default (the step's affinity mask) would leave them unschedulable.
  # Declare the node's Slurm CPU count instead; RAY_NUM_CPUS from the site file wins.
  export RAY_NUM_CPUS="${RAY_NUM_CPUS:-${SLURM_CPUS_ON_NODE:-16}}"
  log "cpu mode: verl platform cpu (tools/cpu_train), vLLM CPU build, ${GPUS} declared GPU(s) per node;" \
    "KV cache ${VLLM_CPU_KVCACHE_SPACE} GiB per replica, ${OMP_NUM_THREADS} thread(s) per process, Ray CPUs ${RAY_NUM_CPUS}"
}

cpu_mode_overrides() {
  cpu_mode || return 0
  LAUNCH_OVERRIDES+=(
    "trainer.device=cpu"
    # vLLM's sleep mode (freeing weights/KV cache between rollouts) needs CUDA's allocator
    "+actor_rollout_ref.rollout.enable_sleep_mode=false"
    # activation offload copies activations to pinned host buffers, which need an accelerator
    # (verl/utils/activation_offload.py:176); on CPU the activations are in host memory already
    "actor_rollout_ref.model.enable_activation_offload=false"
    "actor_rollout_ref.rollout.enforce_eager=true"
    # weight sync through vLLM's layer-wise reload (tools/cpu_train/vllm_reload.py)
    "+actor_rollout_ref.rollout.engine_kwargs.vllm.worker_extension_cls=tools.cpu_train.vllm_reload.LayerwiseReloadWorkerExtension"
    # torch.compile of the entropy kernel (verl/workers/engine/fsdp/transformer_impl.py:183) runs
    # Inductor's C++ codegen + gcc in every training process on its first step: ~35 s of a 2-core
    # machine for a few milliseconds of eager work at toy size. GPU runs keep it.
    "actor_rollout_ref.actor.use_torch_compile=false"
    "actor_rollout_ref.actor.fsdp_config.use_torch_compile=false"
    "actor_rollout_ref.ref.fsdp_config.use_torch_compile=false"
    # the shared-memory buffer for that sync (verl's default 2 GiB is sized for GPUs)
    "actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes=64"
    # each agent-loop and reward worker is a Ray actor of ~0.3 GB
    "actor_rollout_ref.rollout.agent.num_workers=1"
    "reward.num_workers=1"
    # the dataloader's worker processes cost memory and start-up time; one process reads the Parquet
    "data.dataloader_num_workers=0"
  )
  if [[ "${CPU_VLLM_EXECUTOR}" != mp ]]; then
    # verl asks vLLM for the "mp" executor (vllm_async_server.py:329): an engine core plus one
    # worker process per replica, which busy-polls a shared-memory queue. On a few cores that
    # process costs a torch + vLLM import per replica and CPU the trainer needs; "uni" runs the
    # model in the engine core (engine_kwargs are merged last: vllm_async_server.py:349)
    LAUNCH_OVERRIDES+=("${CPU_UNI_EXECUTOR_OVERRIDE}")
  fi
}

cpu_mode_check_config() {
  # After composing ($1: the composed config.yaml). The "uni" executor runs one worker, so a
  # replica of more than one declared GPU needs "mp": auto switches to it (and composes again,
  # so that the config on record is the one the trainer gets); an explicit uni is refused.
  cpu_mode || return 0
  [[ "${CPU_VLLM_EXECUTOR}" != mp ]] || return 0
  local summary words=() tp
  summary="$(run_metrics config "$1")" \
    || die "cannot read actor_rollout_ref.rollout.tensor_model_parallel_size from $1"
  read -ra words <<<"${summary}"
  tp="$(word_value rollout_tp "${words[@]}")"
  ((${tp:-1} > 1)) || return 0
  if [[ "${CPU_VLLM_EXECUTOR}" == uni ]]; then
    die "CPU_VLLM_EXECUTOR=uni runs each vLLM replica in one process, on 1 declared GPU, but" \
      "actor_rollout_ref.rollout.tensor_model_parallel_size=${tp} ($1)." \
      "Fix: CPU_VLLM_EXECUTOR=auto or mp in ${SITE_FILE}, or tensor_model_parallel_size=1"
  fi
  CPU_VLLM_EXECUTOR=mp
  unset VLLM_ENABLE_V1_MULTIPROCESSING
  local arg kept=()
  for arg in "${TRAINER_ARGS[@]}"; do
    [[ "${arg}" == "${CPU_UNI_EXECUTOR_OVERRIDE}" ]] || kept+=("${arg}")
  done
  TRAINER_ARGS=("${kept[@]}")
  log "cpu mode: rollout tensor parallel size ${tp}: vLLM's mp executor (one worker process per declared GPU)"
  compose_config
}
