package dev.stele.server;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.jspecify.annotations.Nullable;

/**
 * The server's certificate and key, renewed without a restart: when {@code recheck} has passed
 * since the last look, a handshake reads the two files again, and if either changed (cert-manager
 * renewed it, or the operator's Secret was replaced, and the kubelet swapped the mounted files) the
 * next handshakes present the new pair. A new pair that cannot be used — a half-written file, a key
 * that is not the certificate's — keeps the old one serving, with one line on standard error, and
 * is tried again at the next look: unlike the access rules, an old certificate takes nothing away
 * that a change meant to.
 *
 * <p>Concurrency: handshakes run on the server's threads; the pair in use changes atomically.
 */
final class RenewingKeys extends X509ExtendedKeyManager {
  /** A pair in use, and the digest of the files' bytes it was loaded from. */
  private record Loaded(Tls tls, String files) {}

  private final Path certFile;
  private final Path keyFile;
  private final Clock clock;
  private final Duration recheck;
  private volatile Loaded loaded;
  private volatile Loaded previous;
  private Instant looked;
  private String refused = "";

  /** Loads the pair now: one that cannot be used stops the start. */
  RenewingKeys(Path certFile, Path keyFile, Clock clock, Duration recheck) throws IOException {
    this.certFile = certFile;
    this.keyFile = keyFile;
    this.clock = clock;
    this.recheck = recheck;
    String files = digest();
    this.loaded = new Loaded(Tls.load(certFile, keyFile), files);
    this.previous = loaded;
    this.looked = clock.instant();
  }

  /** The fingerprint of the certificate presented now. */
  String fingerprint() {
    return current().tls().fingerprint();
  }

  private Loaded current() {
    Instant now = clock.instant();
    synchronized (this) {
      if (now.isBefore(looked.plus(recheck))) {
        return loaded;
      }
      looked = now;
      String problem;
      try {
        String files = digest();
        if (files.equals(loaded.files())) {
          return loaded;
        }
        Tls tls = Tls.load(certFile, keyFile);
        // Loaded after the digest, so a swap in between is seen at the next look.
        previous = loaded;
        loaded = new Loaded(tls, files);
        System.err.println("certificate renewed: fingerprint " + tls.fingerprint());
        return loaded;
      } catch (IOException e) {
        problem = String.valueOf(e.getMessage());
      }
      if (!problem.equals(refused)) { // one line per problem, not one per handshake
        refused = problem;
        System.err.println("certificate not renewed, the old one still serves: " + problem);
      }
      return loaded;
    }
  }

  /** The SHA-256 of both files' bytes, hex. */
  private String digest() throws IOException {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(Files.readAllBytes(certFile));
      sha.update(Files.readAllBytes(keyFile));
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private X509ExtendedKeyManager keys() {
    return current().tls().keys();
  }

  @Override
  public @Nullable String chooseEngineServerAlias(
      String keyType, Principal @Nullable [] issuers, @Nullable SSLEngine engine) {
    return keys().chooseEngineServerAlias(keyType, issuers, engine);
  }

  @Override
  public @Nullable String chooseServerAlias(
      String keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
    return keys().chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String @Nullable [] getServerAliases(String keyType, Principal @Nullable [] issuers) {
    return keys().getServerAliases(keyType, issuers);
  }

  /** The pair an alias names: each pair's alias is its fingerprint. */
  private X509ExtendedKeyManager pair(String alias) {
    Loaded now = loaded;
    return (alias.equals(now.tls().fingerprint()) ? now : previous).tls().keys();
  }

  @Override
  public X509Certificate @Nullable [] getCertificateChain(String alias) {
    return pair(alias).getCertificateChain(alias);
  }

  @Override
  public @Nullable PrivateKey getPrivateKey(String alias) {
    return pair(alias).getPrivateKey(alias);
  }

  @Override
  public String @Nullable [] getClientAliases(String keyType, Principal @Nullable [] issuers) {
    return null; // a server, never a client
  }

  @Override
  public @Nullable String chooseClientAlias(
      String[] keyType, Principal @Nullable [] issuers, @Nullable Socket socket) {
    return null;
  }
}
