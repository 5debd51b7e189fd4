package dev.stele.operator.kube;

import dev.stele.crypto.Kdf;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The operator's own metrics: one gauge per resource and phase (1 in the current phase, else 0),
 * counters of maintenance runs by kind and result, and of key derivations and index loads.
 *
 * <p>Concurrency: safe for many threads.
 */
public final class OperatorMetrics {
  private static final List<String> LOCATION_PHASES = List.of("Available", "Unavailable");
  private static final List<String> REPOSITORY_PHASES = List.of("New", "Ready", "NotReady");

  private final MeterRegistry registry;
  private final Map<String, AtomicInteger> gauges = new ConcurrentHashMap<>();

  public OperatorMetrics(MeterRegistry registry) {
    this.registry = registry;
    // Process-wide counts from stele-core: an open repository should cost one derivation per
    // process, and an index load per backup or maintenance run, not per reconcile pass.
    FunctionCounter.builder("stele_kdf_derivations", this, m -> Kdf.derivations())
        .description("Argon2id key derivations run by this process")
        .register(registry);
    FunctionCounter.builder("stele_index_loads", this, m -> Repository.indexLoads())
        .description("Repository indexes loaded by this process")
        .register(registry);
  }

  public MeterRegistry registry() {
    return registry;
  }

  public void locationPhase(HasMetadata bsl, String phase) {
    phase("stele_location_phase", LOCATION_PHASES, bsl, phase);
  }

  public void repositoryPhase(HasMetadata bslr, String phase) {
    phase("stele_repository_phase", REPOSITORY_PHASES, bslr, phase);
  }

  public void maintenance(HasMetadata bslr, String kind, String result, int deleted) {
    Tags tags =
        Tags.of(
            "namespace",
            bslr.getMetadata().getNamespace(),
            "name",
            bslr.getMetadata().getName(),
            "kind",
            kind,
            "result",
            result);
    registry.counter("stele_maintenance_runs", tags).increment();
    registry.counter("stele_maintenance_deleted_blobs", tags).increment(deleted);
  }

  private void phase(String metric, List<String> phases, HasMetadata r, String current) {
    String ns = r.getMetadata().getNamespace();
    String name = r.getMetadata().getName();
    for (String p : phases) {
      String key = metric + "/" + ns + "/" + name + "/" + p;
      AtomicInteger gauge =
          gauges.computeIfAbsent(
              key,
              k ->
                  registry.gauge(
                      metric,
                      Tags.of("namespace", ns, "name", name, "phase", p),
                      new AtomicInteger()));
      gauge.set(p.equals(current) ? 1 : 0);
    }
  }
}
