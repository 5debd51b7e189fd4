package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele server} as a process: it opens the repository as every command does, prints the
 * certificate's fingerprint, answers health and logins over TLS, and stops on SIGTERM.
 */
class ServerCommandTest {
  private static final Pattern LISTENING =
      Pattern.compile("stele server listening on https://[^:]+:(\\d+)");

  @TempDir Path tmp;

  @Test
  void servesTheRepositoryUntilStopped() throws Exception {
    Path repo = tmp.resolve("repo");
    Path source = tmp.resolve("source");
    Cli.writeSampleSource(source);
    Cli cli = new Cli(repo.toString(), "correct horse");
    assertThat(cli.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
    assertThat(cli.run("snapshot", "create", source.toString()).exitCode()).isZero();
    Certificate cert = certificate(tmp);
    Path users = Files.createDirectories(tmp.resolve("users"));
    Files.writeString(users.resolve("alice"), "alice-pw");
    Files.writeString(tmp.resolve("access.json"), "{\"admins\": [\"alice\"]}");

    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(
        List.of(
            "server",
            "--repo",
            repo.toString(),
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
            tmp.resolve("tls.crt").toString(),
            "--tls-key",
            tmp.resolve("tls.key").toString(),
            "--users",
            users.toString(),
            "--access",
            tmp.resolve("access.json").toString()));
    Path out = tmp.resolve("stdout");
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(tmp.resolve("stderr").toFile());
    pb.environment().put("STELE_PASSWORD", "correct horse");
    Process server = pb.start();
    try {
      String started =
          Await.until(
              "the server says where it listens",
              () -> read(out),
              s -> LISTENING.matcher(s).find());
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
      assertThat(started)
          .startsWith("fingerprint: sha256:" + HexFormat.of().formatHex(digest) + "\n");
      Matcher m = LISTENING.matcher(started);
      assertThat(m.find()).isTrue();
      String base = "https://localhost:" + m.group(1);
      HttpClient http = client(cert);
      var health =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).isEqualTo("ok\n");
      var login =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/api/v1/login"))
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"user\":\"alice\",\"password\":\"alice-pw\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(login.statusCode()).isEqualTo(200);
      // The audit line of that login, on standard output.
      assertThat(read(out)).contains("\"action\":\"login\"").doesNotContain("alice-pw");
    } finally {
      server.destroy();
      server.waitFor();
    }
    assertThat(read(out)).endsWith("stele server stopped\n");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  /** A throwaway certificate for localhost by the JDK's keytool, written as tls.crt and tls.key. */
  static Certificate certificate(Path dir) throws Exception {
    Path store = dir.resolve("server.p12");
    Processes.Result r =
        Processes.run(
            dir,
            dir,
            Duration.ofMinutes(1),
            Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair",
            "-keystore",
            store.toString(),
            "-storetype",
            "PKCS12",
            "-storepass",
            "throwaway",
            "-alias",
            "server",
            "-keyalg",
            "EC",
            "-dname",
            "CN=localhost",
            "-ext",
            "san=dns:localhost",
            "-validity",
            "2");
    assertThat(r.exitCode()).as(r.err()).isZero();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(store)) {
      ks.load(in, "throwaway".toCharArray());
    }
    Certificate cert = ks.getCertificate("server");
    Files.writeString(dir.resolve("tls.crt"), pem("CERTIFICATE", cert.getEncoded()));
    Files.writeString(
        dir.resolve("tls.key"),
        pem("PRIVATE KEY", ks.getKey("server", "throwaway".toCharArray()).getEncoded()));
    return cert;
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static HttpClient client(Certificate cert) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("server", cert);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ssl).build();
  }
}
