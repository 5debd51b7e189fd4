package dev.stele.operator.server;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.List;

/**
 * The server's identity in the cluster: the ServiceAccount {@code <name>} its pods run as, and the
 * Role and RoleBinding {@code <name>} granting exactly what the server does with the API server
 * (docs/server-admin.md): read its own {@code BackupStorageLocationServer}, whose uid its Events
 * name, create and patch the Events it records for refusals, and create and read back the
 * PodVolumeRestores its users ask for (never patch them: it cannot approve one). Nothing else: not
 * the repository's Secrets (mounted), not the users Secret, not any other resource. All owned by
 * the server, so that the garbage collector removes them with it.
 */
final class ServerAccount {
  private final Workload workload;

  ServerAccount(Workload workload) {
    this.workload = workload;
  }

  /** The ServiceAccount, the Role and the RoleBinding, in the order they are applied. */
  List<HasMetadata> objects() {
    String name = workload.name();
    ServiceAccount account =
        new ServiceAccountBuilder()
            .withMetadata(workload.meta(name))
            .withAutomountServiceAccountToken(false) // the Deployment mounts it, nothing else
            .build();
    Role role =
        new RoleBuilder()
            .withMetadata(workload.meta(name))
            .withRules(
                new PolicyRuleBuilder()
                    .withApiGroups("stele.dev")
                    .withResources("backupstoragelocationservers")
                    .withResourceNames(name)
                    .withVerbs("get")
                    .build(),
                new PolicyRuleBuilder()
                    .withApiGroups("")
                    .withResources("events")
                    .withVerbs("create", "patch")
                    .build(),
                // Users' restore requests: made and read back, never changed, so that the server
                // cannot approve one (an approval is an annotation: patch or update).
                new PolicyRuleBuilder()
                    .withApiGroups("stele.dev")
                    .withResources("podvolumerestores")
                    .withVerbs("create", "get", "list")
                    .build())
            .build();
    RoleBinding binding =
        new RoleBindingBuilder()
            .withMetadata(workload.meta(name))
            .addNewSubject()
            .withKind("ServiceAccount")
            .withName(name)
            .withNamespace(account.getMetadata().getNamespace())
            .endSubject()
            .withNewRoleRef()
            .withApiGroup("rbac.authorization.k8s.io")
            .withKind("Role")
            .withName(name)
            .endRoleRef()
            .build();
    return List.of(account, role, binding);
  }
}
