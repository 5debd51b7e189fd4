package dev.stele.operator.location;

import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.Provider;
import dev.stele.operator.kube.Secrets;
import dev.stele.operator.store.Place;
import dev.stele.s3.AwsKeys;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/** Resolves a {@link BackupStorageLocation}'s Secrets into a {@link Place}. */
public final class Places {
  private Places() {}

  /** The names of the Secrets {@code bsl} names: its credentials and its CA certificate. */
  public static List<String> secretNames(BackupStorageLocation bsl) {
    BackupStorageLocationSpec spec = bsl.getSpec();
    List<String> names = new ArrayList<>();
    if (spec != null && spec.credential != null && spec.credential.getName() != null) {
      names.add(spec.credential.getName());
    }
    if (spec != null
        && spec.objectStorage != null
        && spec.objectStorage.caCertRef != null
        && spec.objectStorage.caCertRef.getName() != null) {
      names.add(spec.objectStorage.caCertRef.getName());
    }
    return names;
  }

  public static Place resolve(KubernetesClient client, BackupStorageLocation bsl)
      throws InvalidResourceException {
    BackupStorageLocationSpec spec = bsl.getSpec();
    if (spec == null || spec.provider == null) {
      throw new InvalidResourceException("spec.provider is required (s3 or filesystem)");
    }
    if (Provider.of(spec.provider).isEmpty()) {
      throw new InvalidResourceException(
          "spec.provider " + spec.provider + " is not supported: use s3 or filesystem");
    }
    if (spec.objectStorage == null || spec.objectStorage.bucket == null) {
      throw new InvalidResourceException("spec.objectStorage.bucket is required");
    }
    String ns = bsl.getMetadata().getNamespace();
    AwsKeys keys = null;
    if (spec.credential != null) {
      String what = "spec.credential (Secret " + spec.credential.getName() + ")";
      String file = Secrets.read(client, ns, spec.credential, what);
      if (file == null) {
        throw new InvalidResourceException(
            "Secret " + spec.credential.getName() + " named in spec.credential does not exist");
      }
      String profile =
          spec.config == null ? "default" : spec.config.getOrDefault("profile", "default");
      keys = Secrets.awsKeys(file, profile, what);
    }
    String ca = null;
    if (spec.objectStorage.caCertRef != null) {
      ca = Secrets.read(client, ns, spec.objectStorage.caCertRef, "spec.objectStorage.caCertRef");
      if (ca == null) {
        throw new InvalidResourceException(
            "Secret "
                + spec.objectStorage.caCertRef.getName()
                + " named in spec.objectStorage.caCertRef does not exist");
      }
    }
    String prefix = spec.objectStorage.prefix == null ? "" : spec.objectStorage.prefix;
    while (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    return new Place(spec.provider, spec.objectStorage.bucket, prefix, spec.config, keys, ca);
  }
}
