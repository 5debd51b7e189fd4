package dev.stele.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Ceph RADOS Gateway on loopback: the one S3 server on this project's machines that really
 * enforces Object Lock (see {@code shared/reference/s3-servers.md}). One monitor, one memstore OSD
 * and one gateway, started by {@code start-rgw.sh} in about two seconds and stopped when the JVM
 * exits.
 *
 * <p>There is no skipping: if Ceph is not installed or the gateway does not come up, {@link
 * #shared()} throws and every test that needs it fails, saying how to install it ({@code .ci/run}
 * installs it on CI).
 *
 * <p>Concurrency: {@link #shared()} is thread-safe; one gateway per JVM.
 */
public final class Rgw {
  private static final List<String> BINARIES =
      List.of("ceph-mon", "ceph-osd", "radosgw", "radosgw-admin", "ceph");
  private static final String INSTALL =
      "apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd ceph-common";
  private static Rgw shared;

  private final Path dir;
  private final URI endpoint;
  private final String accessKey;
  private final String secretKey;

  private Rgw(Path dir, URI endpoint, String accessKey, String secretKey) {
    this.dir = dir;
    this.endpoint = endpoint;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
  }

  /** The gateway of this JVM, started on first use. */
  public static synchronized Rgw shared() {
    if (shared == null) {
      try {
        shared = start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return shared;
  }

  public URI endpoint() {
    return endpoint;
  }

  public String accessKey() {
    return accessKey;
  }

  public String secretKey() {
    return secretKey;
  }

  public String region() {
    return "us-east-1";
  }

  /** The gateway's own log, to read what the server did (one access line per request). */
  public Path log() {
    return dir.resolve("log/client.rgw.a.log");
  }

  private static Rgw start() throws IOException {
    List<String> missing = new ArrayList<>();
    for (String binary : BINARIES) {
      if (!onPath(binary)) {
        missing.add(binary);
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "Ceph RGW is needed for this test but "
              + missing
              + " are not installed; run: "
              + INSTALL);
    }
    Path dir = Files.createTempDirectory("stele-rgw-");
    Path script = dir.resolve("start-rgw.sh");
    try (InputStream in = Rgw.class.getResourceAsStream("start-rgw.sh")) {
      Files.copy(in, script);
    }
    int monPort = freePort();
    int s3Port = freePort();
    String access = "STELETEST" + Long.toHexString(System.nanoTime()).toUpperCase(Locale.ROOT);
    String secret = "stele-test-secret-" + Long.toHexString(System.nanoTime());
    Process p =
        new ProcessBuilder(
                "bash",
                script.toString(),
                dir.resolve("ceph").toString(),
                Integer.toString(monPort),
                Integer.toString(s3Port),
                access,
                secret)
            .redirectErrorStream(true)
            .start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(dir), "stele-rgw-stop"));
    String output;
    try {
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("Ceph RGW did not start within 180 s; logs in " + dir);
      }
      output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting Ceph RGW", e);
    }
    if (p.exitValue() != 0 || !output.strip().endsWith("ready")) {
      throw new IllegalStateException(
          "Ceph RGW failed to start (exit "
              + p.exitValue()
              + "): "
              + output.strip()
              + "; logs in "
              + dir);
    }
    return new Rgw(dir, URI.create("http://127.0.0.1:" + s3Port), access, secret);
  }

  private static void stop(Path dir) {
    Path pids = dir.resolve("ceph/pids");
    try {
      if (Files.exists(pids)) {
        for (String pid : Files.readAllLines(pids)) {
          ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    } catch (IOException | RuntimeException e) {
      // best effort at JVM exit
    }
  }

  private static boolean onPath(String binary) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String d : path.split(":", -1)) {
      if (Files.isExecutable(Path.of(d, binary))) {
        return true;
      }
    }
    return false;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
