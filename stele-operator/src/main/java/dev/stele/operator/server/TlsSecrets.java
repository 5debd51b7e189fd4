package dev.stele.operator.server;

import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.api.BackupStorageLocationServerSpec;
import dev.stele.k8s.api.BackupStorageLocationServerStatus;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.ServerPhase;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * The Secret of a server's certificate: the one {@code spec.tls.secretRef} names, or else {@code
 * <name>-tls}, which the operator generates once, owned by the server, and never rewrites (deleting
 * it makes a new one at the next pass, with a new fingerprint).
 */
final class TlsSecrets {
  static final String CERT = "tls.crt";
  static final String KEY = "tls.key";

  private final KubernetesClient client;
  private final Clock clock;

  TlsSecrets(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /** The certificate's Secret and the fingerprint of its certificate. */
  record Served(String secret, String fingerprint) {}

  /** The name of the Secret holding {@code bsls}'s certificate. */
  static String name(BackupStorageLocationServer bsls) {
    String given = given(bsls);
    return given != null ? given : bsls.getMetadata().getName() + "-tls";
  }

  /** The Secret {@code spec.tls.secretRef} names, or null. */
  private static @Nullable String given(BackupStorageLocationServer bsls) {
    BackupStorageLocationServerSpec.Tls tls = bsls.getSpec() == null ? null : bsls.getSpec().tls;
    return tls == null || tls.secretRef == null ? null : tls.secretRef.getName();
  }

  /**
   * The certificate {@code bsls} serves: the given Secret's, checked, or the generated one, made
   * now (with an Event) if it does not exist yet.
   */
  Served served(
      BackupStorageLocationServer bsls,
      Workload workload,
      Pass<BackupStorageLocationServer, BackupStorageLocationServerStatus> pass)
      throws ServerReconciler.Refused {
    String name = name(bsls);
    String ns = bsls.getMetadata().getNamespace();
    boolean given = given(bsls) != null;
    Secret secret = client.secrets().inNamespace(ns).withName(name).get();
    if (secret == null && given) {
      throw refused("Secret " + name + " named in spec.tls.secretRef does not exist");
    }
    if (secret == null) {
      secret = generate(ns, name, workload);
      pass.event(
          Events.NORMAL,
          "CertificateGenerated",
          "generated a self-signed certificate for "
              + String.join(", ", workload.dnsNames())
              + " into Secret "
              + name);
    }
    String what = "Secret " + name + (given ? " named in spec.tls.secretRef" : "");
    String cert = value(secret, CERT);
    if (cert == null || value(secret, KEY) == null) {
      throw refused(what + " lacks tls.crt or tls.key: it must be a kubernetes.io/tls Secret");
    }
    try {
      return new Served(name, Certificates.fingerprint(cert, what));
    } catch (InvalidResourceException e) {
      throw refused(String.valueOf(e.getMessage()));
    }
  }

  private Secret generate(String ns, String name, Workload workload)
      throws ServerReconciler.Refused {
    Certificates.Pem pem = Certificates.selfSigned(workload.dnsNames(), clock.instant());
    Secret secret =
        new SecretBuilder()
            .withMetadata(workload.meta(name))
            .withType("kubernetes.io/tls")
            .addToData(CERT, base64(pem.certificate()))
            .addToData(KEY, base64(pem.key()))
            .build();
    try {
      return client.secrets().inNamespace(ns).resource(secret).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      // Made meanwhile (by a pass of another process): serve that one, never a second.
      Secret made = client.secrets().inNamespace(ns).withName(name).get();
      if (made == null) {
        throw refused("Secret " + name + " was created and deleted meanwhile; trying again");
      }
      return made;
    }
  }

  private static @Nullable String value(Secret secret, String key) {
    if (secret.getData() != null && secret.getData().get(key) != null) {
      return new String(
          Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }
    return secret.getStringData() == null ? null : secret.getStringData().get(key);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static ServerReconciler.Refused refused(String message) {
    return new ServerReconciler.Refused(ServerPhase.NOT_READY, message);
  }
}
