package dev.stele.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;

/**
 * The server's certificate and key, from PEM files as a {@code kubernetes.io/tls} Secret mounts
 * them: {@code tls.crt} (the certificate, then any chain) and {@code tls.key} (PKCS#8, or an RSA
 * key in PKCS#1 as cert-manager writes by default).
 *
 * @param keys the key manager presenting them
 * @param fingerprint the certificate's SHA-256 fingerprint, {@code sha256:<hex>}, which clients pin
 */
record Tls(X509ExtendedKeyManager keys, String fingerprint) {
  static Tls load(Path certFile, Path keyFile) throws IOException {
    try {
      List<? extends Certificate> chain;
      try (InputStream in = Files.newInputStream(certFile)) {
        chain = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
      }
      if (chain.isEmpty()) {
        throw new IOException(certFile + " holds no PEM certificate");
      }
      PrivateKey key = key(keyFile);
      if (!belongs(key, chain.get(0).getPublicKey())) {
        throw new IOException(
            "the key " + keyFile + " is not the key of the certificate " + certFile);
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      char[] none = new char[0];
      String fingerprint = fingerprint(chain.get(0));
      // Named by its fingerprint, so that a handshake under way across a renewal keeps its pair.
      store.setKeyEntry(fingerprint, key, none, chain.toArray(new Certificate[0]));
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, none);
      return new Tls((X509ExtendedKeyManager) keys.getKeyManagers()[0], fingerprint);
    } catch (GeneralSecurityException e) {
      throw new IOException(
          "cannot use the certificate " + certFile + " and key " + keyFile + ": " + e.getMessage(),
          e);
    }
  }

  /** Whether {@code key} signs what {@code cert} verifies: a certificate and key of one pair. */
  private static boolean belongs(PrivateKey key, PublicKey cert) throws GeneralSecurityException {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          default -> key.getAlgorithm(); // Ed25519
        };
    byte[] probe = "stele server key check".getBytes(StandardCharsets.US_ASCII);
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(probe);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(cert);
    verifier.update(probe);
    return verifier.verify(signature);
  }

  /** {@code sha256:} and the lower-case hex SHA-256 of the certificate's DER encoding. */
  static String fingerprint(Certificate cert) throws GeneralSecurityException {
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
    return "sha256:" + HexFormat.of().formatHex(digest);
  }

  private static PrivateKey key(Path keyFile) throws IOException, GeneralSecurityException {
    String pem = Files.readString(keyFile, StandardCharsets.US_ASCII);
    byte[] der;
    if (pem.contains("-----BEGIN PRIVATE KEY-----")) {
      der = body(pem, "PRIVATE KEY");
    } else if (pem.contains("-----BEGIN RSA PRIVATE KEY-----")) {
      var rsa = org.bouncycastle.asn1.pkcs.RSAPrivateKey.getInstance(body(pem, "RSA PRIVATE KEY"));
      der =
          new PrivateKeyInfo(
                  new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption, DERNull.INSTANCE),
                  rsa)
              .getEncoded();
    } else {
      throw new IOException(
          keyFile
              + " holds no PEM private key in PKCS#8 (BEGIN PRIVATE KEY) or RSA PKCS#1 form;"
              + " convert it with: openssl pkcs8 -topk8 -nocrypt");
    }
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    GeneralSecurityException last = null;
    for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw new IOException(keyFile + ": not an RSA, EC or Ed25519 key", last);
  }

  private static byte[] body(String pem, String type) throws IOException {
    String begin = "-----BEGIN " + type + "-----";
    String end = "-----END " + type + "-----";
    int from = pem.indexOf(begin);
    int to = pem.indexOf(end);
    if (from < 0 || to < from) {
      throw new IOException("a PEM " + type + " without its END line");
    }
    return Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
  }
}
