package dev.stele.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * How the CLI trusts a repository server: the certificate's pinned SHA-256 fingerprint (any other
 * certificate is refused, whoever signed it, and the one seen is remembered to be named), or the CA
 * certificates of a PEM file (then the host name is checked as usual).
 */
final class ServerTrust {
  private static final Pattern FINGERPRINT = Pattern.compile("sha256:[0-9a-f]{64}");

  /** The fingerprint of the certificate a pinned handshake refused, for the error line. */
  final AtomicReference<String> refused = new AtomicReference<>();

  final SSLContext context;
  final String pin;

  private ServerTrust(SSLContext context, String pin) {
    this.context = context;
    this.pin = pin;
  }

  /** Trust from {@code --server-cert-fingerprint} or {@code --ca-cert}: exactly one of them. */
  static ServerTrust of(String fingerprint, Path caCert) throws IOException {
    if ((fingerprint == null) == (caCert == null)) {
      throw CliException.usage(
          "a repository server needs --server-cert-fingerprint sha256:<hex> or --ca-cert FILE"
              + " (one of them)");
    }
    try {
      SSLContext ssl = SSLContext.getInstance("TLS");
      if (fingerprint != null) {
        String pin = fingerprint.toLowerCase(Locale.ROOT);
        if (!FINGERPRINT.matcher(pin).matches()) {
          throw CliException.usage(
              "--server-cert-fingerprint " + fingerprint + ": expected sha256:<64 hex digits>");
        }
        ServerTrust trust = new ServerTrust(ssl, pin);
        ssl.init(null, new TrustManager[] {trust.new Pinned()}, null);
        return trust;
      }
      ssl.init(null, caTrust(caCert), null);
      return new ServerTrust(ssl, null);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /** {@code sha256:<hex>} of a certificate's DER encoding, as the server prints its own. */
  static String fingerprint(Certificate cert) throws CertificateException {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
      return "sha256:" + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static TrustManager[] caTrust(Path file) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    try (InputStream in = Files.newInputStream(file)) {
      int n = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + n++, c);
      }
      if (n == 0) {
        throw CliException.usage("--ca-cert " + file + ": no PEM certificate in it");
      }
    } catch (CertificateException e) {
      throw CliException.usage("--ca-cert " + file + ": not a PEM certificate file");
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    return tmf.getTrustManagers();
  }

  /**
   * Accepts the one certificate whose fingerprint is pinned. An extended trust manager, so that
   * JSSE leaves the host name to it: a pinned certificate is trusted for whatever name reached it.
   */
  private final class Pinned extends X509ExtendedTrustManager {
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      if (chain.length == 0) {
        throw new CertificateException("the server sent no certificate");
      }
      String seen = fingerprint(chain[0]);
      if (!MessageDigest.isEqual(
          seen.getBytes(StandardCharsets.US_ASCII), pin.getBytes(StandardCharsets.US_ASCII))) {
        refused.set(seen);
        throw new CertificateException("server certificate " + seen + " is not the pinned one");
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      throw new CertificateException("not a server");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      throw new CertificateException("not a server");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("not a server");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
