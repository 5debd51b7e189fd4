package dev.stele.s3;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP proxy the environment names for an endpoint, as curl, Go programs and the AWS SDK read
 * it: {@code HTTPS_PROXY} for https, {@code HTTP_PROXY} for http (either in lower case too), unless
 * {@code NO_PROXY} lists the host, a domain it is in, or {@code *}. In a cluster that is how
 * proxies are given to a pod. The JVM's own {@code https.proxyHost} properties still apply where
 * the environment names none.
 */
final class Proxies {
  private Proxies() {}

  /** The proxy for {@code endpoint}, or null for the JVM's own choice. */
  static @Nullable Proxy of(URI endpoint, Map<String, String> env) {
    String host = endpoint.getHost();
    if (host == null || excluded(host, variable(env, "NO_PROXY"))) {
      return null;
    }
    boolean https = "https".equalsIgnoreCase(endpoint.getScheme());
    String value = variable(env, https ? "HTTPS_PROXY" : "HTTP_PROXY");
    if (value == null) {
      return null;
    }
    String name = https ? "HTTPS_PROXY" : "HTTP_PROXY";
    URI proxy;
    try {
      proxy = URI.create(value.contains("://") ? value : "http://" + value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + " is not a proxy address: " + value, e);
    }
    if (proxy.getHost() == null) {
      throw new IllegalArgumentException(name + " is not a proxy address: " + value);
    }
    int port =
        proxy.getPort() != -1 ? proxy.getPort() : "https".equals(proxy.getScheme()) ? 443 : 80;
    return new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved(proxy.getHost(), port));
  }

  private static boolean excluded(String host, @Nullable String noProxy) {
    if (noProxy == null) {
      return false;
    }
    String h = bare(host);
    for (String entry : noProxy.split(",", -1)) {
      String e = entry.strip().toLowerCase(Locale.ROOT);
      if (e.equals("*")) {
        return true;
      }
      if (e.matches("[^:]+:\\d+|\\[.*\\]:\\d+")) {
        e = e.substring(0, e.lastIndexOf(':')); // a port: not told apart here
      }
      e = bare(e).replaceFirst("^\\*?\\.", ""); // *.example.com, .example.com: the domain
      if (!e.isEmpty() && (h.equals(e) || h.endsWith("." + e))) {
        return true;
      }
    }
    return false;
  }

  private static String bare(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
  }

  private static @Nullable String variable(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      value = env.get(name.toLowerCase(Locale.ROOT));
    }
    return value == null || value.isBlank() ? null : value.strip();
  }
}
