package dev.stele.cli.cluster;

import dev.stele.cli.CliEnvironment;
import dev.stele.cli.CliException;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import picocli.CommandLine.Option;

/**
 * {@code --kubeconfig}, {@code --context} and {@code -n}, shared by the commands that work against
 * a cluster. The cluster and credentials come from fabric8's usual auto-configuration (KUBECONFIG,
 * else {@code ~/.kube/config}, else the in-cluster service account), as kubectl finds them; the
 * namespace is where the Stele resources live, not the context's namespace, as with Velero's.
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

  /** The client configuration: the kubeconfig's, with few retries (a person is waiting). */
  Config config(CliEnvironment env) {
    File file = kubeconfigFile(env);
    Config config;
    if (file != null) {
      if (!Files.isRegularFile(file.toPath())) {
        throw CliException.notFound(file + ": no such kubeconfig file");
      }
      config = Config.fromKubeconfig(context, file);
    } else {
      config = Config.autoConfigure(context);
    }
    if (context != null) {
      NamedContext current = config.getCurrentContext();
      if (current == null || !context.equals(current.getName())) {
        throw CliException.usage(
            "--context "
                + context
                + ": no such context in "
                + (file != null ? file : "the kubeconfig"));
      }
    }
    // The default (10 retries, backing off exponentially) keeps a command silent for minutes
    // when the API server is unreachable.
    return new ConfigBuilder(config).withRequestRetryBackoffLimit(1).build();
  }

  /**
   * {@code --kubeconfig}, else this environment's KUBECONFIG when it differs from the process's
   * (tests and the demo inject one; fabric8 reads the process's itself), else null.
   */
  private File kubeconfigFile(CliEnvironment env) {
    return kubeconfig != null ? kubeconfig.toFile() : injectedKubeconfig(env);
  }

  /**
   * The first file of this environment's KUBECONFIG when it differs from the process's, else null:
   * fabric8 reads the process's itself.
   */
  static File injectedKubeconfig(CliEnvironment env) {
    String variable = env.variable("KUBECONFIG");
    if (variable != null
        && !variable.isBlank()
        && !Objects.equals(variable, System.getenv("KUBECONFIG"))) {
      return new File(variable.split(File.pathSeparator, -1)[0]);
    }
    return null;
  }
}
