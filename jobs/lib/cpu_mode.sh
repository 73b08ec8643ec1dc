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
# default 1). Docs: README.md ("What is real on CPU").

cpu_mode() { [[ "${PLATFORM:-gpu}" == cpu ]]; }

cpu_mode_check() {
  case "${PLATFORM:-gpu}" in
    gpu | cpu) ;;
    *) die "PLATFORM='${PLATFORM}' in ${SITE_FILE}: use gpu (the default) or cpu" ;;
  esac
  cpu_mode || return 0
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
}
