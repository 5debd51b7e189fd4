package dev.stele.cli.cluster;

import dev.stele.cli.CliEnvironment;
import dev.stele.cli.CliException;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --kubeconfig}, {@code --context} and {@code -n}, shared by the commands that work against
 * a cluster. The cluster and credentials are found as kubectl finds them ({@link KubeConfigs}:
 * KUBECONFIG, else {@code ~/.kube/config}, else the in-cluster service account); the namespace is
 * where the Stele resources live, not the context's namespace, as with Velero's.
 */
final class ClusterOptions {
  static final String DEFAULT_NAMESPACE = "stele";
  static final String NAMESPACE_VARIABLE = "STELE_NAMESPACE";

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description = "The kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).")
  Path kubeconfig;

  @Option(
      names = "--context",
      paramLabel = "NAME",
      description = "The kubeconfig context (default: its current context).")
  String context;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description =
          "The namespace of the Stele resources (default: $"
              + NAMESPACE_VARIABLE
              + ", then "
              + DEFAULT_NAMESPACE
              + ").")
  String namespace;

  String namespace(CliEnvironment env) {
    if (namespace != null && !namespace.isBlank()) {
      return namespace;
    }
    String variable = env.variable(NAMESPACE_VARIABLE);
    return variable == null || variable.isBlank() ? DEFAULT_NAMESPACE : variable;
  }

  /** Where {@link #config} found the cluster, for messages; null before. */
  String source;

  /** The client configuration ({@link KubeConfigs}), with few retries (a person is waiting). */
  Config config(CliEnvironment env) {
    KubeConfigs.Found found = KubeConfigs.find(env, kubeconfig, context);
    source = found.source();
    Config config = found.config();
    if (context != null) {
      NamedContext current = config.getCurrentContext();
      if (current == null || !context.equals(current.getName())) {
        throw CliException.usage("--context " + context + ": no such context in " + found.source());
      }
    }
    // The default (10 retries, backing off exponentially) keeps a command silent for minutes
    // when the API server is unreachable.
    return new ConfigBuilder(config).withRequestRetryBackoffLimit(1).build();
  }
}
