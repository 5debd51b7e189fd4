package dev.stele.repo;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The local host and user names recorded in snapshots and key blobs. */
public final class Hosts {
  private Hosts() {}

  public static String name() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  public static String user() {
    return System.getProperty("user.name", "unknown");
  }
}
