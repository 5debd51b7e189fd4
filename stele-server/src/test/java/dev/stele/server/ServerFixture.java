package dev.stele.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.crypto.KdfParams;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A repository with snapshots made by the engine, a throwaway certificate, a users directory, an
 * access file, a server on a free port, and a plain HTTP client that trusts only that certificate.
 */
final class ServerFixture implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final MutableClock clock = new MutableClock(Instant.now());
  final Path dir;
  final Path users;
  final Path access;
  final InMemoryBlobStore store;
  final Repository repo;
  final ByteArrayOutputStream auditBytes = new ByteArrayOutputStream();
  final List<RefusalEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final HttpClient http;
  private final X509Certificate cert;
  private RepositoryServer server;

  @SuppressWarnings("JavaUtilDate") // BouncyCastle's builder takes Dates
  ServerFixture(Path dir) throws Exception {
    this.dir = dir;
    this.users = Files.createDirectories(dir.resolve("users"));
    this.access = dir.resolve("access.json");
    KdfParams cheap =
        KdfParams.argon2id(1024, 1, "server-test-salt".getBytes(StandardCharsets.UTF_8));
    this.store = new InMemoryBlobStore(clock);
    this.repo =
        Repository.init(
            store,
            "repository password".toCharArray(),
            RepositoryInit.defaults(clock).withKdf(cheap));
    KeyPair keys = KeyPairGenerator.getInstance("EC").generateKeyPair();
    Instant now = Instant.now();
    var builder =
        new JcaX509v3CertificateBuilder(
            new X500Name("CN=stele-server-test"),
            BigInteger.ONE,
            Date.from(now.minusSeconds(60)),
            Date.from(now.plus(Duration.ofDays(1))),
            new X500Name("CN=stele-server-test"),
            keys.getPublic());
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
    cert =
        new JcaX509CertificateConverter()
            .getCertificate(
                builder.build(
                    new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    Files.writeString(dir.resolve("tls.crt"), pem("CERTIFICATE", cert.getEncoded()));
    Files.writeString(dir.resolve("tls.key"), pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("server", cert);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    http = HttpClient.newBuilder().sslContext(ssl).build();
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  /** A snapshot of {@code files} (name → content) with these tags and labels. */
  FileBackup.Result snapshot(
      String name, Map<String, byte[]> files, List<String> tags, Map<String, String> labels)
      throws IOException {
    Path source = Files.createDirectories(dir.resolve("sources").resolve(name));
    for (var f : files.entrySet()) {
      Path file = source.resolve(f.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, f.getValue());
    }
    FileBackupOptions options =
        FileBackupOptions.defaults("host-" + name).withThreads(1).withTags(tags).withLabels(labels);
    return new FileBackup(repo, options, FileBackupListener.NONE).run(List.of(source));
  }

  void start() throws IOException {
    server =
        RepositoryServer.start(
            repo,
            ServerOptions.of(
                    new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0),
                    dir.resolve("tls.crt"),
                    dir.resolve("tls.key"),
                    users,
                    access,
                    new PrintStream(auditBytes, true, StandardCharsets.UTF_8))
                .withClock(clock)
                .withRecheck(Duration.ZERO),
            events::add);
  }

  String fingerprint() {
    return server.fingerprint();
  }

  X509Certificate certificate() {
    return cert;
  }

  List<JsonNode> audit() throws IOException {
    var out = new java.util.ArrayList<JsonNode>();
    for (String line : auditBytes.toString(StandardCharsets.UTF_8).split("\n", -1)) {
      if (!line.isEmpty()) {
        out.add(JSON.readTree(line));
      }
    }
    return out;
  }

  String auditText() {
    return auditBytes.toString(StandardCharsets.UTF_8);
  }

  URI uri(String rawPath) {
    return URI.create("https://localhost:" + server.address().getPort() + rawPath);
  }

  HttpResponse<byte[]> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  HttpResponse<byte[]> get(String token, String rawPath, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(rawPath)).header("Authorization", "Bearer " + token);
    if (headers.length > 0) {
      b.headers(headers);
    }
    return send(b.GET());
  }

  HttpResponse<byte[]> login(String user, String password)
      throws IOException, InterruptedException {
    String body = JSON.writeValueAsString(Map.of("user", user, "password", password));
    return send(
        HttpRequest.newBuilder(uri("/api/v1/login"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Logs in and gives the response's JSON (token, csrf, …), asserting it succeeded. */
  JsonNode session(String user, String password) throws IOException, InterruptedException {
    HttpResponse<byte[]> r = login(user, password);
    assertThat(r.statusCode()).as(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  static JsonNode json(HttpResponse<byte[]> r) throws IOException {
    return JSON.readTree(r.body());
  }

  @Override
  public void close() throws IOException {
    if (server != null) {
      server.close();
    }
    repo.close();
  }
}
