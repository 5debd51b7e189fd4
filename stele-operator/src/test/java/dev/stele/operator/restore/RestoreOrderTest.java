package dev.stele.operator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The order objects are created in. */
class RestoreOrderTest {
  static BackedUpObject of(String qualified, String ns, String name) {
    int dot = qualified.indexOf('.');
    String resource = dot < 0 ? qualified : qualified.substring(0, dot);
    String group = dot < 0 ? "" : qualified.substring(dot + 1);
    return new BackedUpObject(group, resource, ns, name, JsonNodeFactory.instance.objectNode());
  }

  @Test
  void definitionsAndNamespacesComeFirstWorkloadsAfterTheirDependenciesTheRestLastByName() {
    List<String> expected =
        List.of(
            "customresourcedefinitions.apiextensions.k8s.io",
            "namespaces",
            "storageclasses.storage.k8s.io",
            "persistentvolumes",
            "persistentvolumeclaims",
            "serviceaccounts",
            "clusterroles.rbac.authorization.k8s.io",
            "clusterrolebindings.rbac.authorization.k8s.io",
            "configmaps",
            "secrets",
            "limitranges",
            "resourcequotas",
            "services",
            "roles.rbac.authorization.k8s.io",
            "rolebindings.rbac.authorization.k8s.io",
            "pods",
            "replicasets.apps",
            "deployments.apps",
            "statefulsets.apps",
            "daemonsets.apps",
            "jobs.batch",
            "cronjobs.batch",
            "ingresses.networking.k8s.io",
            "backups.stele.dev",
            "endpoints",
            "widgets.example.com");
    List<BackedUpObject> objects = new ArrayList<>();
    for (String type : expected) {
      objects.add(of(type, "b", "y"));
      objects.add(of(type, "a", "z"));
    }
    Collections.shuffle(objects, new Random(42));
    objects.sort(RestoreOrder.OBJECTS);
    List<String> types = new ArrayList<>();
    for (int i = 0; i < objects.size(); i += 2) {
      types.add(objects.get(i).qualifiedResource());
      // within a type: by namespace, then name
      assertThat(objects.get(i).namespace()).isEqualTo("a");
      assertThat(objects.get(i + 1).namespace()).isEqualTo("b");
    }
    assertThat(types).isEqualTo(expected);
  }
}
