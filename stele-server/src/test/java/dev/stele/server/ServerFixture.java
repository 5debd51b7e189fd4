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

  /** The waits bandwidth limits asked for: each advances the clock instead of sleeping. */
  final List<Duration> pauses = new java.util.concurrent.CopyOnWriteArrayList<>();

  final List<RefusalEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Where users' restore requests go; a test may set its own before {@link #start()}. */
  RestoreRequests restoreRequests = RestoreRequests.NONE;

  private final HttpClient http;
  private final X509Certificate cert;
  private RepositoryServer server;

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
    cert = certificate(dir, "stele-server-test");
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

  /**
   * Writes a new self-signed certificate for localhost and its key as {@code tls.crt} and {@code
   * tls.key} in {@code dir}, each replaced atomically; gives the certificate.
   */
  @SuppressWarnings("JavaUtilDate") // BouncyCastle's builder takes Dates
  static X509Certificate certificate(Path dir, String name) throws Exception {
    KeyPair keys = KeyPairGenerator.getInstance("EC").generateKeyPair();
    Instant now = Instant.now();
    var builder =
        new JcaX509v3CertificateBuilder(
            new X500Name("CN=" + name),
            BigInteger.ONE,
            Date.from(now.minusSeconds(60)),
            Date.from(now.plus(Duration.ofDays(1))),
            new X500Name("CN=" + name),
            keys.getPublic());
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
    X509Certificate cert =
        new JcaX509CertificateConverter()
            .getCertificate(
                builder.build(
                    new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    replace(dir.resolve("tls.crt"), pem("CERTIFICATE", cert.getEncoded()));
    replace(dir.resolve("tls.key"), pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
    return cert;
  }

  private static void replace(Path file, String content) throws IOException {
    Path next = file.resolveSibling(file.getFileName() + ".next");
    Files.writeString(next, content);
    Files.move(next, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
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
    start(dir.resolve("tls.crt"), dir.resolve("tls.key"), users, access);
  }

  /** Starts the server on these files instead of the fixture's own. */
  void start(Path tlsCert, Path tlsKey, Path usersDir, Path accessFile) throws IOException {
    server =
        RepositoryServer.start(
            repo,
            ServerOptions.of(
                    new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0),
                    tlsCert,
                    tlsKey,
                    usersDir,
                    accessFile,
                    new PrintStream(auditBytes, true, StandardCharsets.UTF_8))
                .withClock(clock)
                .withRecheck(Duration.ZERO),
            events::add,
            restoreRequests,
            d -> {
              pauses.add(d);
              clock.advance(d);
            });
  }

  String fingerprint() {
    return server.fingerprint();
  }

  /** The certificate a fresh handshake (no session to resume) is shown. */
  java.security.cert.Certificate presented() throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new javax.net.ssl.TrustManager[] {new TrustAll()}, null);
    InetSocketAddress at = new InetSocketAddress("localhost", server.address().getPort());
    try (javax.net.ssl.SSLSocket socket =
        (javax.net.ssl.SSLSocket) context.getSocketFactory().createSocket()) {
      socket.connect(at, 10_000);
      socket.startHandshake();
      return socket.getSession().getPeerCertificates()[0];
    }
  }

  /** Shows what the server presents; trusts it, as the tests check it themselves. */
  private static final class TrustAll implements javax.net.ssl.X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
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
    return send(request, HttpResponse.BodyHandlers.ofByteArray());
  }

  <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body)
      throws IOException, InterruptedException {
    return http.send(request.build(), body);
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
