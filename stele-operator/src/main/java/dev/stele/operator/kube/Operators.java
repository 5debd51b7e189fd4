package dev.stele.operator.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The java-operator-sdk {@link Operator} that {@link dev.stele.operator.SteleOperator} and the node
 * agent run their reconcilers on, set up the same way for both.
 */
public final class Operators {
  private Operators() {}

  /**
   * An operator, not started yet, with {@code reconcilers} registered.
   *
   * @param client the caller's: the operator leaves it open when it stops (a test may keep using it
   *     after a restart)
   * @param serverSideApply true in production; tests against fabric8's mock server, which answers
   *     415 to apply patches, turn it off
   * @param namespace the only namespace to watch (WATCH_NAMESPACE); null or blank: all
   * @param leaderElection null: every process reconciles (the node agent, one per node); else only
   *     the holder of that Lease does, while the others keep their informers synced and wait
   */
  public static Operator create(
      KubernetesClient client,
      boolean serverSideApply,
      @Nullable String namespace,
      List<Reconciler<? extends HasMetadata>> reconcilers,
      @Nullable LeaderElectionConfiguration leaderElection) {
    Operator operator =
        new Operator(
            o -> {
              o.withKubernetesClient(client)
                  .withCloseClientOnStop(false)
                  .withUseSSAToPatchPrimaryResource(serverSideApply)
                  .withSSABasedCreateUpdateMatchForDependentResources(serverSideApply);
              if (leaderElection != null) {
                o.withLeaderElectionConfiguration(leaderElection);
              }
            });
    for (var reconciler : reconcilers) {
      register(operator, reconciler, namespace);
    }
    return operator;
  }

  private static <R extends HasMetadata> void register(
      Operator operator, Reconciler<R> reconciler, @Nullable String namespace) {
    if (namespace == null || namespace.isBlank()) {
      operator.register(reconciler);
    } else {
      operator.register(reconciler, c -> c.settingNamespace(namespace));
    }
  }
}
