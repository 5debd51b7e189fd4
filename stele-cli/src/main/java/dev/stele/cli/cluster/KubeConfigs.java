package dev.stele.cli.cluster;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.cli.CliEnvironment;
import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.JsonPaths;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;

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

  /**
   * Reads a kubeconfig as {@code Config.fromKubeconfig} does, with one difference: fabric8's own
   * read goes through its shared parser, which first scans the class path and registers each of its
   * ~550 model classes for reading resources by kind, about 0.1 s of every cluster command's start.
   * A kubeconfig has no such part, so it is bound with a parser that skips the scan. What that read
   * does after the parse is done here too: each context, cluster and user names its file (under
   * fabric8's keys), so that relative paths in it (certificates, keys, token files, exec commands)
   * resolve against the kubeconfig's directory, as kubectl resolves them ({@code
   * ClusterConnectionTest} checks one). Content that is not a kubeconfig is one line naming the
   * file.
   */
  private static Found kubeconfig(Path file, @Nullable String context) {
    String source = "kubeconfig " + file;
    io.fabric8.kubernetes.api.model.Config parsed;
    try {
      parsed =
          new KubernetesSerialization(new ObjectMapper(), false)
              .unmarshal(Files.readString(file), io.fabric8.kubernetes.api.model.Config.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      throw new CliException(ExitCode.USAGE, source + " is not a kubeconfig: " + reason(e), e);
    }
    if (parsed == null) {
      throw CliException.usage(source + " is empty");
    }
    File named = file.toFile();
    each(parsed.getContexts(), c -> c.getAdditionalProperties().put(CONTEXT_FILE, named));
    each(parsed.getClusters(), c -> c.getAdditionalProperties().put(CLUSTER_FILE, named));
    each(parsed.getUsers(), u -> u.getAdditionalProperties().put(USER_FILE, named));
    Config config = Config.empty();
    KubeConfigUtils.merge(config, context, parsed);
    return new Found(config, source);
  }

  // The keys under which fabric8's KubeConfigUtils.parseConfig records each entry's file.
  private static final String CONTEXT_FILE = "KUBERNETES_CONFIG_CONTEXT_FILE_KEY";
  private static final String CLUSTER_FILE = "KUBERNETES_CONFIG_CLUSTER_FILE_KEY";
  private static final String USER_FILE = "KUBERNETES_CONFIG_AUTH_INFO_FILE_KEY";

  private static <T> void each(@Nullable List<T> entries, Consumer<T> action) {
    if (entries != null) {
      entries.forEach(action);
    }
  }

  /**
   * Why a kubeconfig did not parse, in one line: where its YAML breaks, or which field is wrong.
   */
  private static String reason(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MarkedYamlEngineException yaml) {
        return yaml.getProblem()
            + yaml.getProblemMark().map(m -> " (line " + (m.getLine() + 1) + ")").orElse("");
      }
      if (t instanceof JsonMappingException json) {
        String path = JsonPaths.of(json);
        return path.isEmpty()
            ? "it is not a mapping of clusters, contexts and users"
            : "unexpected value at " + path;
      }
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return message.lines().findFirst().orElse("").strip();
  }
}
