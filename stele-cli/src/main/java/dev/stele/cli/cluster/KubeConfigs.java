package dev.stele.cli.cluster;

import dev.stele.cli.CliEnvironment;
import dev.stele.cli.CliException;
import io.fabric8.kubernetes.client.Config;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Finds the cluster as kubectl does, and says where it found it: {@code --kubeconfig}; else the
 * first existing file KUBECONFIG lists (a relative one against the working directory); else {@code
 * ~/.kube/config}; else the in-cluster service account. A KUBECONFIG that names no existing file is
 * an error, never a silent fall back to the in-cluster configuration (which outside a pod ends in
 * "unknown host"); with no kubeconfig at all, the source says what was tried.
 */
final class KubeConfigs {
  private KubeConfigs() {}

  /** A client configuration and where it came from, for messages. */
  record Found(Config config, String source) {}

  static Found find(CliEnvironment env, @Nullable Path option, @Nullable String context) {
    if (option != null) {
      Path file = option.toAbsolutePath();
      if (!Files.isRegularFile(file)) {
        throw CliException.notFound(option + ": no such kubeconfig file");
      }
      return kubeconfig(file, context);
    }
    String variable = env.variable("KUBECONFIG");
    if (variable != null && !variable.isBlank()) {
      List<Path> listed =
          Arrays.stream(variable.split(File.pathSeparator, -1))
              .filter(s -> !s.isBlank())
              .map(s -> Path.of(s).toAbsolutePath())
              .toList();
      return listed.stream()
          .filter(Files::isRegularFile)
          .findFirst()
          .map(file -> kubeconfig(file, context))
          .orElseThrow(
              () ->
                  CliException.notFound(
                      "KUBECONFIG names no existing file ("
                          + listed.stream().map(Path::toString).collect(Collectors.joining(", "))
                          + "): correct it, or unset it to use ~/.kube/config"));
    }
    String home = env.variable("HOME");
    Path usual =
        Path.of(home == null || home.isBlank() ? System.getProperty("user.home") : home)
            .resolve(".kube/config");
    if (Files.isRegularFile(usual)) {
      return kubeconfig(usual, context);
    }
    String service = env.variable("KUBERNETES_SERVICE_HOST");
    // Outside a pod this configuration cannot reach anything, but a command that does not connect
    // (install without --apply) still runs; one that connects names what was tried.
    return new Found(
        Config.autoConfigure(context),
        service == null || service.isBlank()
            ? "no kubeconfig: KUBECONFIG is unset, "
                + usual
                + " does not exist, and this is not a pod (KUBERNETES_SERVICE_HOST is unset);"
                + " pass --kubeconfig or set KUBECONFIG"
            : "the in-cluster service account");
  }

  private static Found kubeconfig(Path file, @Nullable String context) {
    return new Found(Config.fromKubeconfig(context, file.toFile()), "kubeconfig " + file);
  }
}
