package dev.stele.operator.kube;

import dev.stele.crypto.Kdf;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.MaintenanceKind;
import dev.stele.k8s.api.MaintenanceResult;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
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

  public void locationPhase(HasMetadata bsl, LocationPhase phase) {
    phase("stele_location_phase", LocationPhase.values(), bsl, phase);
  }

  public void repositoryPhase(HasMetadata bslr, RepositoryPhase phase) {
    phase("stele_repository_phase", RepositoryPhase.values(), bslr, phase);
  }

  public void maintenance(
      HasMetadata bslr, MaintenanceKind kind, MaintenanceResult result, int deleted) {
    Tags tags =
        Tags.of(
            "namespace",
            bslr.getMetadata().getNamespace(),
            "name",
            bslr.getMetadata().getName(),
            "kind",
            kind.value(),
            "result",
            result.value());
    registry.counter("stele_maintenance_runs", tags).increment();
    registry.counter("stele_maintenance_deleted_blobs", tags).increment(deleted);
  }

  private <P extends Enum<P>> void phase(String metric, P[] phases, HasMetadata r, P current) {
    String ns = r.getMetadata().getNamespace();
    String name = r.getMetadata().getName();
    for (P phase : phases) {
      String p = phase.toString();
      String key = metric + "/" + ns + "/" + name + "/" + p;
      AtomicInteger gauge =
          gauges.computeIfAbsent(
              key,
              k ->
                  registry.gauge(
                      metric,
                      Tags.of("namespace", ns, "name", name, "phase", p),
                      new AtomicInteger()));
      gauge.set(phase == current ? 1 : 0);
    }
  }
}
