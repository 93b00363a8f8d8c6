package dev.atrium.identity.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A permission code of the form {@code resource:action} (or one of spec 02's plain codes). Seeded by migrations. */
@Entity
@Table(name = "permissions")
public class Permission {

    @Id
    private Long id;

    @Column(nullable = false, length = 100, unique = true)
    private String code;

    @Column(length = 200)
    private String description;

    protected Permission() {
    }

    public Long id() {
        return id;
    }

    public String code() {
        return code;
    }

    public String description() {
        return description;
    }
}
