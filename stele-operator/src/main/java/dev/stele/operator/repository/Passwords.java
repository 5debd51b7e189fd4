package dev.stele.operator.repository;

import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.operator.kube.Secrets;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The password Secret of one repository: {@code spec.passwordSecretRef}, by default {@code
 * <name>-repository-password} key {@code password}. Generated when missing, with no owner
 * reference, so neither the operator nor the garbage collector ever deletes it.
 */
final class Passwords {
  static final String DEFAULT_KEY = "password";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final KubernetesClient client;
  private final String namespace;
  private final String owner;
  private final SecretKeySelector ref;

  Passwords(KubernetesClient client, BackupStorageLocationRepository bslr) {
    this.client = client;
    this.namespace = bslr.getMetadata().getNamespace();
    this.owner = bslr.getMetadata().getName();
    this.ref = ref(bslr);
  }

  static SecretKeySelector ref(BackupStorageLocationRepository bslr) {
    SecretKeySelector given = bslr.getSpec() == null ? null : bslr.getSpec().passwordSecretRef;
    String name =
        given != null && given.getName() != null
            ? given.getName()
            : bslr.getMetadata().getName() + "-repository-password";
    String key = given != null && given.getKey() != null ? given.getKey() : DEFAULT_KEY;
    return new SecretKeySelector(key, name, false);
  }

  String describe() {
    return "Secret " + ref.getName() + " (key " + ref.getKey() + ")";
  }

  /** The password, or null if the Secret does not exist. */
  String read() throws InvalidResourceException {
    return Secrets.read(client, namespace, ref, "spec.passwordSecretRef");
  }

  /** Creates the Secret with 32 random bytes, base64url; returns the password. */
  String generate() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    client
        .secrets()
        .inNamespace(namespace)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(ref.getName())
                .withNamespace(namespace)
                .addToAnnotations("stele.dev/generated-for", owner)
                .endMetadata()
                .withType("Opaque")
                .addToData(
                    ref.getKey(),
                    Base64.getEncoder()
                        .encodeToString(password.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .build())
        .create();
    return password;
  }
}
