package dev.stele.operator.kube;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
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

  /**
   * Starts {@code operator}. When it cannot start because the API server does not serve some of its
   * resource types — their CRDs are not installed — the failure names them and how to install them
   * instead of the informers' error.
   */
  public static void start(Operator operator, KubernetesClient client) throws IOException {
    try {
      operator.start();
    } catch (RuntimeException e) {
      Set<String> missing;
      try {
        missing = missingCrds(operator, client);
      } catch (RuntimeException again) { // discovery failed too: the first failure says more
        e.addSuppressed(again);
        throw e;
      }
      if (missing.isEmpty()) {
        throw e;
      }
      throw new IOException(
          "the Kubernetes API server at "
              + client.getMasterUrl()
              + " does not serve "
              + String.join(", ", missing)
              + ": install the CRDs with kubectl apply -f deploy/crds (or stele install --apply)",
          e);
    }
  }

  /** The CRDs of the operator's resource types ({@code backups.stele.dev}) not served. */
  private static Set<String> missingCrds(Operator operator, KubernetesClient client) {
    Set<String> missing = new TreeSet<>();
    for (Object registered : operator.getRegisteredControllers()) { // a raw Set
      Class<? extends HasMetadata> type =
          ((RegisteredController<?>) registered).getConfiguration().getResourceClass();
      if (!served(client, HasMetadata.getApiVersion(type)).contains(HasMetadata.getPlural(type))) {
        missing.add(HasMetadata.getFullResourceName(type));
      }
    }
    return missing;
  }

  /** The plurals discovery lists for {@code groupVersion}; none when the server has no such. */
  private static Set<String> served(KubernetesClient client, String groupVersion) {
    APIResourceList list;
    try {
      list = client.getApiResources(groupVersion);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Set.of();
      }
      throw e;
    }
    return list == null
        ? Set.of()
        : list.getResources().stream().map(APIResource::getName).collect(Collectors.toSet());
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
