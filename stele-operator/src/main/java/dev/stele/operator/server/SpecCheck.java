package dev.stele.operator.server;

import dev.stele.k8s.api.BackupStorageLocationServerSpec;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** What in a server's spec cannot be served as written (the CRD's schema catches most of it). */
final class SpecCheck {
  static final Set<String> SERVICE_TYPES = Set.of("ClusterIP", "NodePort", "LoadBalancer");
  static final Set<String> ACCESS = Set.of("Read", "Append");

  private SpecCheck() {}

  /** The first problem of {@code spec}, as one line naming the field; null when there is none. */
  static @Nullable String problem(@Nullable BackupStorageLocationServerSpec spec) {
    if (spec == null
        || spec.backupStorageLocationRepositoryRef == null
        || spec.backupStorageLocationRepositoryRef.isBlank()) {
      return "spec.backupStorageLocationRepositoryRef is required";
    }
    if (spec.userSecretRef == null
        || spec.userSecretRef.getName() == null
        || spec.userSecretRef.getName().isBlank()) {
      return "spec.userSecretRef.name is required";
    }
    String type = Workload.serviceType(spec);
    if (!SERVICE_TYPES.contains(type)) {
      return "spec.service.type "
          + type
          + " is not supported: use ClusterIP, NodePort or LoadBalancer";
    }
    int port = Workload.port(spec);
    if (port < 1 || port > 65535) {
      return "spec.service.port " + port + " is not a port (1-65535)";
    }
    if (spec.replicas != null && spec.replicas < 0) {
      return "spec.replicas must not be negative";
    }
    if (spec.access != null && spec.access.rules != null) {
      for (int i = 0; i < spec.access.rules.size(); i++) {
        var rule = spec.access.rules.get(i);
        if (rule.users == null || rule.users.isEmpty()) {
          return "spec.access.rules[" + i + "].users is empty: name the users the rule is for";
        }
        if (rule.access != null && !ACCESS.contains(rule.access)) {
          return "spec.access.rules[" + i + "].access " + rule.access + " is not Read or Append";
        }
      }
    }
    return null;
  }
}
