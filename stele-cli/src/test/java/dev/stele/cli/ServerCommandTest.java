package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.testing.Await;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
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
import java.util.Map;
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
    Certificate cert = setUpRepositoryAndUsers();
    Process server = start(List.of(), Map.of());
    try {
      String started =
          Await.until(
              "the server says where it listens",
              () -> read(out()),
              s -> LISTENING.matcher(s).find());
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
      assertThat(started)
          .startsWith("fingerprint: sha256:" + HexFormat.of().formatHex(digest) + "\n");
      String base = base(started);
      HttpClient http = client(cert);
      var health =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).isEqualTo("ok\n");
      assertThat(login(http, base, "alice-pw").statusCode()).isEqualTo(200);
      // The audit line of that login, on standard output (written as the answer's body closes,
      // so a loaded machine may show it a moment after the answer).
      String audited =
          Await.until(
              "the login's audit line", () -> read(out()), o -> o.contains("\"action\":\"login\""));
      assertThat(audited).doesNotContain("alice-pw");
    } finally {
      server.destroy();
      server.waitFor();
    }
    assertThat(read(out())).endsWith("stele server stopped\n");
  }

  /**
   * With {@code --resource}, refused logins are Warning Events on the server's resource in the
   * cluster: the first makes one Event, fifty make that one Event with count 50, not fifty Events.
   */
  @Test
  void refusedLoginsAreOneWarningEventWithACountOnTheResource() throws Exception {
    Certificate cert = setUpRepositoryAndUsers();
    try (ApiServer cluster = new ApiServer()) {
      KubernetesClient k8s = cluster.client();
      BackupStorageLocationServer bsls = new BackupStorageLocationServer();
      bsls.setMetadata(new ObjectMetaBuilder().withName("files").withNamespace("stele").build());
      bsls = k8s.resource(bsls).create();
      Path kubeconfig = tmp.resolve("kubeconfig");
      Files.writeString(
          kubeconfig,
          String.join(
              "\n",
              "apiVersion: v1",
              "kind: Config",
              "clusters: [{name: test, cluster: {server: '" + cluster.url() + "'}}]",
              "users: [{name: test, user: {token: test}}]",
              "contexts: [{name: test, context: {cluster: test, user: test}}]",
              "current-context: test",
              ""));
      Process server =
          start(List.of("--resource", "stele/files"), Map.of("KUBECONFIG", kubeconfig.toString()));
      try {
        String base =
            base(
                Await.until(
                    "the server says where it listens",
                    () -> read(out()),
                    s -> LISTENING.matcher(s).find()));
        HttpClient http = client(cert);
        assertThat(login(http, base, "guess-0").statusCode()).isEqualTo(401);
        List<Event> first =
            Await.until("the first refusal's Event", () -> events(k8s), e -> !e.isEmpty());
        assertThat(first).hasSize(1);
        Event e = first.get(0);
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getReason()).isEqualTo("LoginRefused");
        assertThat(e.getCount()).isEqualTo(1);
        assertThat(e.getInvolvedObject().getUid()).isEqualTo(bsls.getMetadata().getUid());
        assertThat(e.getMessage())
            .isEqualTo("alice from 127.0.0.1: login: wrong user or password")
            .doesNotContain("guess");
        for (int i = 1; i < 50; i++) {
          assertThat(login(http, base, "guess-" + i).statusCode()).isIn(401, 429);
        }
        List<Event> all =
            Await.until(
                "the count of fifty refusals",
                () -> events(k8s),
                l -> l.size() == 1 && l.get(0).getCount() == 50);
        assertThat(all.get(0).getMetadata().getName()).isEqualTo(e.getMetadata().getName());
        assertThat(all.get(0).getMessage()).startsWith("alice from 127.0.0.1: login: too many");
      } finally {
        server.destroy();
        server.waitFor();
      }
    }
  }

  private static List<Event> events(KubernetesClient k8s) {
    return k8s.v1().events().inNamespace("stele").list().getItems();
  }

  private static HttpResponse<String> login(HttpClient http, String base, String password)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + "/api/v1/login"))
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"user\":\"alice\",\"password\":\"" + password + "\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A repository with one snapshot, user alice (an admin), and a certificate for localhost. */
  private Certificate setUpRepositoryAndUsers() throws Exception {
    Path source = tmp.resolve("source");
    Cli.writeSampleSource(source);
    Cli cli = new Cli(tmp.resolve("repo").toString(), "correct horse");
    assertThat(cli.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
    assertThat(cli.run("snapshot", "create", source.toString()).exitCode()).isZero();
    Certificate cert = certificate(tmp);
    Path users = Files.createDirectories(tmp.resolve("users"));
    Files.writeString(users.resolve("alice"), "alice-pw");
    Files.writeString(tmp.resolve("access.json"), "{\"admins\": [\"alice\"]}");
    return cert;
  }

  /** {@code stele server} in a JVM of its own, with {@code extra} options and environment. */
  private Process start(List<String> extra, Map<String, String> env) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(
        List.of(
            "server",
            "--repo",
            tmp.resolve("repo").toString(),
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
            tmp.resolve("tls.crt").toString(),
            "--tls-key",
            tmp.resolve("tls.key").toString(),
            "--users",
            tmp.resolve("users").toString(),
            "--access",
            tmp.resolve("access.json").toString()));
    command.addAll(extra);
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectOutput(out().toFile())
            .redirectError(tmp.resolve("stderr").toFile());
    pb.environment().put("STELE_PASSWORD", "correct horse");
    pb.environment().putAll(env);
    return pb.start();
  }

  private Path out() {
    return tmp.resolve("stdout");
  }

  private static String base(String started) {
    Matcher m = LISTENING.matcher(started);
    assertThat(m.find()).isTrue();
    return "https://localhost:" + m.group(1);
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
