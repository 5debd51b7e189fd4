package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.cli.SteleCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Mixin;

/**
 * Base of the commands that work against a cluster (Velero's: {@code backup}, {@code restore
 * create|get|describe}, {@code schedule}): connects with {@link ClusterOptions}, runs, and turns
 * what the API server answers into one line and an exit code (unreachable, refused, unknown
 * resource type when the CRDs are not installed, rejected by validation).
 *
 * <p>These commands only create and read resources; the operator does the work.
 */
abstract class ClusterCommand extends SteleCommand {
  @Mixin ClusterOptions cluster;

  /** Set before {@link #run()}. */
  KubernetesClient client;

  String namespace;

  @Override
  public final Integer call() throws Exception {
    namespace = cluster.namespace(env());
    try (KubernetesClient c =
        new KubernetesClientBuilder()
            .withConfig(cluster.config(env()))
            .withHttpClientFactory(new JdkHttpClientFactory())
            .build()) {
      client = c;
      try {
        return run();
      } catch (KubernetesClientException e) {
        throw explain(
            e, c.getMasterUrl() == null ? "?" : c.getMasterUrl().toString(), cluster.source);
      }
    }
  }

  abstract int run() throws Exception;

  /** {@code -n NS } when the namespace is not the default, for commands the output suggests. */
  String namespaceFlag() {
    return namespace.equals(ClusterOptions.DEFAULT_NAMESPACE) ? "" : " -n " + namespace;
  }

  /** The resource, or null. */
  <T extends HasMetadata> T get(Class<T> type, String name) {
    return client.resources(type).inNamespace(namespace).withName(name).get();
  }

  /** The resource, or a not-found failure naming what was looked for. */
  <T extends HasMetadata> T require(Class<T> type, String kind, String name) {
    T found = get(type, name);
    if (found == null) {
      throw CliException.notFound(kind + " " + name + " does not exist in namespace " + namespace);
    }
    return found;
  }

  /**
   * The named resources in the order given, or every one in the namespace by name; a not-found
   * failure naming every missing one, before anything is printed.
   */
  <T extends HasMetadata> List<T> select(Class<T> type, String kind, List<String> names) {
    if (names == null || names.isEmpty()) {
      List<T> all =
          new ArrayList<>(client.resources(type).inNamespace(namespace).list().getItems());
      all.sort(Comparator.comparing(r -> r.getMetadata().getName()));
      return all;
    }
    List<T> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      T r = get(type, name);
      if (r == null) {
        missing.add(name);
      } else {
        found.add(r);
      }
    }
    if (!missing.isEmpty()) {
      throw CliException.notFound(
          "no " + kind + " " + String.join(", ", missing) + " in namespace " + namespace);
    }
    return found;
  }

  /** Creates the resource; one that already exists is a failure saying so. */
  <T extends HasMetadata> T create(T resource, String kind) {
    try {
      return client.resource(resource).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        throw new CliException(
            ExitCode.ERROR,
            kind
                + " "
                + resource.getMetadata().getName()
                + " already exists in namespace "
                + namespace);
      }
      throw e;
    }
  }

  /**
   * What the API server said, as the one line a person needs; when it could not be reached, with
   * where its address came from ({@code source}).
   */
  static CliException explain(KubernetesClientException e, String server, String source) {
    Status status = e.getStatus();
    String said =
        status == null || status.getMessage() == null || status.getMessage().isBlank()
            ? null
            : status.getMessage();
    int code = e.getCode();
    if (code <= 0 && said == null && e.getCause() != null) {
      return new CliException(
          ExitCode.ERROR,
          "cannot reach the Kubernetes API server at "
              + server
              + ": "
              + why(e.getCause())
              + " ("
              + source
              + ")",
          e);
    }
    if (code == 401) {
      return new CliException(
          ExitCode.ERROR,
          "the Kubernetes API server at " + server + " refused the kubeconfig's credentials",
          e);
    }
    if (code == 404
        && (said == null
            || said.toLowerCase(Locale.ROOT).contains("could not find the requested resource"))) {
      return new CliException(
          ExitCode.NOT_FOUND,
          "the cluster at "
              + server
              + " does not know Stele's resources (stele.dev): install them with stele install"
              + " --apply",
          e);
    }
    String line = said != null ? said : firstLine(e.getMessage());
    return new CliException(code == 404 ? ExitCode.NOT_FOUND : ExitCode.ERROR, line, e);
  }

  /** Why a request got no answer, from the causes under the client's exception. */
  private static String why(Throwable cause) {
    String message = null;
    boolean connect = false;
    for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.net.UnknownHostException
          || t instanceof java.nio.channels.UnresolvedAddressException) {
        return "unknown host";
      }
      connect |= t instanceof java.net.ConnectException;
      if (t instanceof java.net.http.HttpTimeoutException
          || t instanceof java.net.SocketTimeoutException) {
        return "timed out";
      }
      if (t instanceof javax.net.ssl.SSLException) {
        return "TLS: " + t.getMessage();
      }
      if (message == null && t.getMessage() != null && !t.getMessage().isBlank()) {
        message = firstLine(t.getMessage());
      }
    }
    return connect
        ? "connection refused"
        : message != null ? message : cause.getClass().getSimpleName();
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "the Kubernetes API server failed the request";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
