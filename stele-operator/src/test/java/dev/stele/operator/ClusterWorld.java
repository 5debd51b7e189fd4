package dev.stele.operator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Map;

/**
 * The objects of an application that needs cluster-scoped ones, created in a cluster: a CRD and a
 * custom resource of it, a ServiceAccount bound by a ClusterRoleBinding to a ClusterRole, a claim
 * bound to its volume of a StorageClass; and, beside it, cluster-scoped objects nothing of it needs
 * (a CRD without resources, a binding of another namespace's account, a free volume, a class).
 */
public final class ClusterWorld {
  public static final ResourceDefinitionContext WIDGETS =
      new ResourceDefinitionContext.Builder()
          .withGroup("example.com")
          .withVersion("v1")
          .withPlural("widgets")
          .withKind("Widget")
          .withNamespaced(true)
          .build();

  private ClusterWorld() {}

  @SuppressWarnings("exports") // the test kit is on the class path when tests run
  public static CustomResourceDefinition crd(String plural, String kind) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(plural + ".example.com")
        .endMetadata()
        .withNewSpec()
        .withGroup("example.com")
        .withScope("Namespaced")
        .withNewNames()
        .withKind(kind)
        .withPlural(plural)
        .endNames()
        .addNewVersion()
        .withName("v1")
        .withServed(true)
        .withStorage(true)
        .endVersion()
        .endSpec()
        .build();
  }

  static GenericKubernetesResource widget(String ns, String name) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("example.com/v1")
        .withKind("Widget")
        .withNewMetadata()
        .withName(name)
        .withNamespace(ns)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("colour", "blue")))
        .build();
  }

  static PersistentVolume volume(String name, String storageClass, String claimNs, String claim) {
    var b =
        new PersistentVolumeBuilder()
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withStorageClassName(storageClass)
            .withCapacity(Map.of("storage", new Quantity("1Gi")))
            .withAccessModes("ReadWriteOnce")
            .withNewHostPath()
            .withPath("/data/" + name)
            .endHostPath()
            .endSpec();
    if (claim != null) {
      b.editSpec()
          .withNewClaimRef()
          .withKind("PersistentVolumeClaim")
          .withNamespace(claimNs)
          .withName(claim)
          .withUid("uid-of-the-old-claim")
          .withResourceVersion("12")
          .endClaimRef()
          .endSpec();
    }
    return b.build();
  }

  static PersistentVolumeClaim claim(String ns, String name, String volume, String storageClass) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(ns)
        .addToAnnotations("pv.kubernetes.io/bind-completed", "yes")
        .endMetadata()
        .withNewSpec()
        .withVolumeName(volume)
        .withStorageClassName(storageClass)
        .withAccessModes("ReadWriteOnce")
        .withNewResources()
        .addToRequests("storage", new Quantity("1Gi"))
        .endResources()
        .endSpec()
        .build();
  }

  /**
   * Namespace {@code ns} with the application (widget {@code blue}, service account {@code db},
   * claim {@code data} on volume {@code pv-data} of class {@code fast}), and namespace {@code
   * other} with service account {@code x}; cluster-scoped: CRDs widgets and gadgets, cluster roles
   * {@code db-reader} and {@code other-role}, their bindings {@code db-reader} (to {@code ns/db})
   * and {@code unrelated} (to {@code other/x}), volumes {@code pv-data} and {@code pv-free},
   * classes {@code fast} and {@code slow}.
   */
  public static void create(KubernetesClient client, String ns) {
    for (String n : new String[] {ns, "other"}) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(n).endMetadata().build())
          .createOr(r -> r.update());
    }
    var crds = client.apiextensions().v1().customResourceDefinitions();
    crds.resource(crd("widgets", "Widget")).create();
    crds.resource(crd("gadgets", "Gadget")).create();
    client
        .genericKubernetesResources(WIDGETS)
        .inNamespace(ns)
        .resource(widget(ns, "blue"))
        .create();
    for (String[] sa : new String[][] {{ns, "db"}, {"other", "x"}}) {
      client
          .serviceAccounts()
          .inNamespace(sa[0])
          .resource(
              new ServiceAccountBuilder().withNewMetadata().withName(sa[1]).endMetadata().build())
          .create();
    }
    for (String[] binding :
        new String[][] {
          {"db-reader", "db-reader", ns, "db"}, {"unrelated", "other-role", "other", "x"}
        }) {
      client
          .rbac()
          .clusterRoles()
          .resource(
              new ClusterRoleBuilder()
                  .withNewMetadata()
                  .withName(binding[1])
                  .endMetadata()
                  .addNewRule()
                  .withApiGroups("")
                  .withResources("configmaps")
                  .withVerbs("get", "list")
                  .endRule()
                  .build())
          .create();
      client
          .rbac()
          .clusterRoleBindings()
          .resource(
              new ClusterRoleBindingBuilder()
                  .withNewMetadata()
                  .withName(binding[0])
                  .endMetadata()
                  .withNewRoleRef()
                  .withApiGroup("rbac.authorization.k8s.io")
                  .withKind("ClusterRole")
                  .withName(binding[1])
                  .endRoleRef()
                  .addNewSubject()
                  .withKind("ServiceAccount")
                  .withNamespace(binding[2])
                  .withName(binding[3])
                  .endSubject()
                  .build())
          .create();
    }
    for (String sc : new String[] {"fast", "slow"}) {
      client
          .storage()
          .v1()
          .storageClasses()
          .resource(
              new StorageClassBuilder()
                  .withNewMetadata()
                  .withName(sc)
                  .endMetadata()
                  .withProvisioner("example.com/" + sc)
                  .build())
          .create();
    }
    client.persistentVolumes().resource(volume("pv-data", "fast", ns, "data")).create();
    client.persistentVolumes().resource(volume("pv-free", "slow", null, null)).create();
    client
        .persistentVolumeClaims()
        .inNamespace(ns)
        .resource(claim(ns, "data", "pv-data", "fast"))
        .create();
  }
}
